// Replicas and distributed bulk scoring (issue 18 items 2 and 3): how replicas follow the shared snapshot pointer and
// how `avm score-all --distributed` partitions and leases work on the pg-boss queue.
import { c, defineGroup } from '../define.js';

export const DISTRIBUTED = defineGroup({
  name: 'distributed',
  version: '1.1.0',
  owner: 'platform',
  entries: {
    snapshot_poll_ms: c(30_000, 'milliseconds', 'a replica re-reads the snapshot pointer this often besides LISTEN/NOTIFY, so a lost notification (connection cut) delays a switch by at most this much', 'engineering choice (one indexed single-row read per replica per poll)'),
    registry_poll_ms: c(30_000, 'milliseconds', 'a replica re-reads the shared model registry\'s stamp this often besides LISTEN/NOTIFY, so a promotion whose notification was lost reaches it within this much', 'engineering choice (one indexed single-row read per replica per poll)'),
    partition_rows: c(20_000, 'parcels', 'parcels per queued partition: a partition is a few seconds of one worker (so a killed worker loses little), and 150 M parcels make 7,500 jobs, far within what one pg-boss queue serves', 'engineering choice; throughput measured in README (Distributed bulk scoring)'),
    job_heartbeat_s: c(10, 'seconds', 'a worker that stops heartbeating this long (killed, cut off) loses its partition, which pg-boss fails and retries on another worker; 10 is pg-boss\'s minimum', 'pg-boss 12 QueueOptions.heartbeatSeconds (must be >= 10)'),
    job_expire_s: c(3600, 'seconds', 'a partition still active after this long is failed and retried even while heartbeating (a hung worker)', 'engineering choice: far above one partition\'s scoring time'),
    job_retry_limit: c(5, 'retries', 'a partition failed this many times (bad worker machines) ends the run with an error instead of looping', 'engineering choice'),
    supervise_interval_s: c(2, 'seconds', 'how often a pg-boss instance checks for expired or heartbeat-less jobs: bounds the delay before a dead worker\'s partition is retried', 'pg-boss 12 superviseIntervalSeconds / monitorIntervalSeconds (minimum 1)'),
    run_poll_ms: c(1000, 'milliseconds', 'the coordinator re-reads the run\'s partition table this often while waiting for workers', 'engineering choice (one indexed read per second)'),
  },
});
