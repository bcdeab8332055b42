// The real `avm` command as an operator runs it: the compiled CLI in a child process (`npm test` builds it first).
import { spawnCli, type CliExit } from '../../bench/server-support.js';

export { linesOf } from '../../bench/server-support.js';

/** Runs `node dist/src/cli.js ...args` (bench/server-support.ts spawnCli) with `env`; kills it at `timeoutMs`. */
export async function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<CliExit> {
  const { child, exit } = spawnCli(args, env);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    return await exit;
  } finally {
    clearTimeout(timer);
  }
}
