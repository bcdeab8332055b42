// The partition queue on pg-boss (a maintained PostgreSQL job queue: SKIP LOCKED claims, retries, heartbeats; its
// own schema `pgboss` beside ours). A worker that stops heartbeating (killed, cut off) loses its partition after
// job_heartbeat_s: any running pg-boss instance's supervision fails the job and it is claimed again, by another worker.
import { PgBoss } from 'pg-boss';
import { DISTRIBUTED } from '../../registry/groups/distributed.js';

export const SCORE_QUEUE = 'avm-score-partition';

export type PartitionJob = { runId: string; part: number };

/** Starts a pg-boss instance on `url` (installing its schema on first use) and makes sure the queue exists. */
export async function openScoreQueue(url: string, onError: (e: Error) => void): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: url,
    application_name: 'avm-score',
    max: 4,
    schedule: false, // no cron jobs here: no clock-skew monitor either
    superviseIntervalSeconds: DISTRIBUTED.v.supervise_interval_s,
    monitorIntervalSeconds: DISTRIBUTED.v.supervise_interval_s,
  });
  boss.on('error', onError); // a connection error must not crash the process; pg-boss retries on its next tick
  await boss.start();
  if (!(await boss.getQueue(SCORE_QUEUE))) {
    const options = { heartbeatSeconds: DISTRIBUTED.v.job_heartbeat_s, expireInSeconds: DISTRIBUTED.v.job_expire_s, retryLimit: DISTRIBUTED.v.job_retry_limit, retryDelay: 0 };
    // Two processes may create it at once: the loser finds it there.
    await boss.createQueue(SCORE_QUEUE, options).catch(async (e: unknown) => {
      if (!(await boss.getQueue(SCORE_QUEUE))) throw e;
    });
  }
  return boss;
}
