-- Snapshots for replicas (issue 18 item 2): the snapshot every replica should serve (one row; its manifest names the
-- files in AVM_SNAPSHOT_DIR and their sha256), and what each replica last reported serving (health, operators).
CREATE TABLE snapshot_pointer (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  snapshot_id text NOT NULL,
  manifest jsonb NOT NULL,
  published_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE snapshot_replicas (
  replica_id text PRIMARY KEY,
  snapshot_id text,
  detail text NOT NULL,
  seen_at timestamptz NOT NULL DEFAULT now()
);
