// A minimal leveled logger writing one line per event to stderr; never logs secrets (callers pass none).
import type { Config } from './config.js';

export type Logger = { info: (msg: string, extra?: unknown) => void; error: (msg: string, extra?: unknown) => void; debug: (msg: string, extra?: unknown) => void };

const RANK = { silent: 0, error: 1, info: 2, debug: 3 } as const;

export function createLogger(level: Config['logLevel']): Logger {
  const write = (lvl: keyof typeof RANK, msg: string, extra?: unknown): void => {
    if (RANK[lvl] > RANK[level]) return;
    const tail = extra === undefined ? '' : ` ${extra instanceof Error ? extra.stack : typeof extra === 'string' ? extra : JSON.stringify(extra)}`;
    process.stderr.write(`${new Date().toISOString()} ${lvl} ${msg}${tail}\n`);
  };
  return { info: (m, e) => write('info', m, e), error: (m, e) => write('error', m, e), debug: (m, e) => write('debug', m, e) };
}
