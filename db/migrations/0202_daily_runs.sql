-- The daily listings run across replicas (issue 18): the replica that wins the advisory lock records the UTC day it
-- runs for; a replica firing later the same day (or starting later) finds the day finished and does not run it again.
-- A row with started_at but no finished_at is a run whose replica died: the next holder of the lock runs it.
CREATE TABLE listings_daily_runs (
  day date PRIMARY KEY,
  owner text NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  outcome text
);
