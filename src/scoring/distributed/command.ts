// `avm score-all --distributed` and `avm worker`: the CLI jobs over the coordinator and the worker.
import type { Config } from '../../config.js';
import { createProgress } from '../../progress.js';
import { openShared } from '../../store/shared/command.js';
import { openStore } from '../../store/store.js';
import { resumeDistributedScoreAll, runDistributedScoreAll, type RunManifest } from './coordinator.js';
import { openScoreQueue } from './queue.js';
import { startScoreWorker } from './worker.js';
import { assertKernelAvailable } from '../../kernel/select.js';

const warn = (e: Error): void => void process.stderr.write(`avm: job queue: ${e.message}\n`);

/** A new run, or with `resume` the wait and finalization of a run whose coordinator died. */
export async function runDistributedCommand(config: Config, o: { partitionRows?: number; resume?: string } = {}): Promise<RunManifest> {
  const { pool, url, snapshotDir } = await openShared(config, 'score-all --distributed');
  const boss = await openScoreQueue(url, warn);
  const store = openStore(config.dataDir);
  try {
    const opts = { pool, boss, store, config, snapshotDir, partitionRows: o.partitionRows, progress: createProgress('score-all --distributed') };
    return await (o.resume ? resumeDistributedScoreAll(opts, o.resume) : runDistributedScoreAll(opts));
  } finally {
    await boss.stop({ graceful: false });
    await store.close();
    await pool.end();
  }
}

/** Runs until SIGINT/SIGTERM (finishing the partition in hand first); prints one line per partition. */
export async function runWorkerCommand(config: Config): Promise<void> {
  assertKernelAvailable(); // a forced native kernel that cannot load stops here, not in every partition's retries
  const { pool, url, snapshotDir } = await openShared(config, 'worker');
  const boss = await openScoreQueue(url, warn);
  const worker = await startScoreWorker({ config, pool, boss, snapshotDir, log: (line) => process.stdout.write(`${line}\n`) });
  process.stdout.write(`worker ${worker.workerId} waiting for partitions\n`);
  await new Promise<void>((resolve) => {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => resolve());
  });
  await worker.stop();
  await boss.stop({ graceful: true });
  await pool.end();
}
