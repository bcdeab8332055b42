// The real `avm` command as an operator runs it: the compiled CLI in a child process (`npm test` builds it first).
import { spawnCli, type CliExit } from '../../bench/server-support.js';
import { laneEnv } from './pg-lane.js';

export { linesOf } from '../../bench/server-support.js';

/**
 * Runs `node dist/src/cli.js ...args` (bench/server-support.ts spawnCli) with `env`; kills it at `timeoutMs`. On the
 * PostgreSQL lane (pg-lane.ts) a command over a data dir (AVM_DATA_DIR or --data-dir) gets that dir's state database.
 */
export async function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<CliExit> {
  const flag = args.indexOf('--data-dir');
  const dataDir = flag >= 0 ? args[flag + 1] : env.AVM_DATA_DIR;
  const { child, exit } = spawnCli(args, { ...laneEnv(dataDir, env), ...env });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    return await exit;
  } finally {
    clearTimeout(timer);
  }
}
