-- Distributed bulk scoring (issue 18 item 3): one row per `avm score-all --distributed` run and one per partition.
-- The jobs themselves live in pg-boss's schema; these rows are the run's own record: a partition is done once, by
-- the first worker that finishes it (a retried duplicate finds it done and changes nothing).
CREATE TABLE score_runs (
  run_id text PRIMARY KEY,
  snapshot_id text NOT NULL,
  stamp jsonb NOT NULL,
  total_rows integer NOT NULL,
  partitions integer NOT NULL,
  results_dir text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  manifest jsonb
);

CREATE TABLE score_partitions (
  run_id text NOT NULL REFERENCES score_runs (run_id) ON DELETE CASCADE,
  part integer NOT NULL,
  first_row integer NOT NULL,
  end_row integer NOT NULL,
  worker text,
  file text,
  sha256 text,
  rows_scored integer,
  attempts integer NOT NULL DEFAULT 0,
  completed_at timestamptz,
  PRIMARY KEY (run_id, part)
);
