-- The alert outbox shared by every replica (issue 18): one row per alert (id derived from the idempotency key), its
-- state machine pending -> delivered | dead_lettered, its attempts (JSON array, as the LMDB record), and the delivery
-- lease: a replica claims a pending row with FOR UPDATE SKIP LOCKED and sets lease_owner/lease_expires_at; a claim
-- whose lease lapsed (its replica died) is claimable again by any replica.
CREATE TABLE alert_outbox (
  id text PRIMARY KEY,
  idempotency_key text NOT NULL UNIQUE,
  profile_id text NOT NULL,
  channel text NOT NULL CHECK (channel IN ('webhook', 'telegram')),
  body text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'delivered', 'dead_lettered')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  delivered_at timestamptz,
  rounds integer NOT NULL DEFAULT 0,
  attempts jsonb NOT NULL DEFAULT '[]'::jsonb,
  dead_letter text,
  replays integer NOT NULL DEFAULT 0,
  lease_owner text,
  lease_expires_at timestamptz
);
-- The claim scan: pending rows, oldest first.
CREATE INDEX alert_outbox_pending ON alert_outbox (created_at, id) WHERE state = 'pending';
