-- The shared state of replicas (issue 18, PGSTATE): API keys, the per-key audit and call metering, owned user state
-- (favorites, notes, presets, profiles) and the sync event stream. Records are stored as `json` (not jsonb), so a
-- record reads back with the exact text, key order included, that the writer stored (the LMDB backend does the same).
-- Text that is ordered or compared as a range (ids, ISO timestamps, days) is COLLATE "C": byte order, as LMDB keys,
-- whatever the database's locale.

-- API keys: only SHA-256 of the secret is stored (src/auth/keys.ts). Timestamps are the ISO text the service wrote.
CREATE TABLE api_keys (
  id text COLLATE "C" PRIMARY KEY,
  hash text NOT NULL,
  scopes text[] NOT NULL,
  rpm_limit integer NOT NULL,
  created_at text COLLATE "C" NOT NULL,
  rotated_from text,
  revoked_at text,
  label text,
  owner_id text NOT NULL
);
CREATE INDEX api_keys_owner ON api_keys (owner_id);

-- One audited call of a keyed caller; `at` is ISO text (equal width, so text order is time order).
CREATE TABLE audit_records (
  n bigserial PRIMARY KEY,
  key_id text NOT NULL,
  op text NOT NULL,
  at text COLLATE "C" NOT NULL,
  status integer NOT NULL,
  request_id text NOT NULL,
  ip text NOT NULL
);
CREATE INDEX audit_records_key_at ON audit_records (key_id, at DESC, n DESC);
CREATE INDEX audit_records_at ON audit_records (at);

-- Call metering: calls per UTC day, subject (key id, anonymous, rejected) and operation.
CREATE TABLE audit_meter (
  day text COLLATE "C" NOT NULL,
  subject text NOT NULL,
  op text NOT NULL,
  calls bigint NOT NULL,
  PRIMARY KEY (day, subject, op)
);

-- Owned user state: one row per (kind, owner, id); seq orders an owner's writes (newest-first pages).
CREATE SEQUENCE user_state_seq;
CREATE TABLE user_state (
  kind text NOT NULL,
  owner_id text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  seq bigint NOT NULL,
  record json NOT NULL,
  PRIMARY KEY (kind, owner_id, id)
);
CREATE INDEX user_state_owner_seq ON user_state (owner_id, seq DESC);

-- The sync event stream: ids from a sequence, handed out under a transaction-level advisory lock held to commit, so
-- ids become visible in increasing order on every replica (src/store/pg/events.ts).
CREATE SEQUENCE event_seq;
CREATE TABLE events (
  id bigint PRIMARY KEY,
  record json NOT NULL
);
