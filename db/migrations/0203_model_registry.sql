-- The calibration/model registry shared by every replica (issue 18): the registry document (champion, rollback
-- pointer, history) as one row, each calibration version's table and report as JSON (the LMDB `calibration`
-- sub-database's keys model_registry, table:<version>, report:<version>).
CREATE TABLE model_registry (
  id smallint PRIMARY KEY CHECK (id = 1),
  doc jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE calibration_tables (
  version text PRIMARY KEY,
  tbl jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE calibration_reports (
  version text PRIMARY KEY,
  report jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
