-- The PostgreSQL backend's own facts (issue 18): one row per key, JSON values (the LMDB meta sub-database's role).
CREATE TABLE backend_meta (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
