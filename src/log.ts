// The service's structured log: pino JSON lines on stderr (stdout is the CLI's), one object per event with `msg` and
// its fields. Never receives secrets, API keys or request bodies: callers pass ids, counts and codes only.
import { pino, type DestinationStream } from 'pino';
import type { Config } from './config.js';

export type LogLevel = Config['logLevel'];
export type Logger = {
  info: (msg: string, extra?: unknown) => void;
  warn: (msg: string, extra?: unknown) => void;
  error: (msg: string, extra?: unknown) => void;
  debug: (msg: string, extra?: unknown) => void;
};

/** An Error is logged under `err` (pino's serializer: type, message, stack); a plain object's keys become fields. */
function fieldsOf(extra: unknown): Record<string, unknown> {
  if (extra === undefined) return {};
  if (extra instanceof Error) return { err: extra };
  if (extra !== null && typeof extra === 'object' && !Array.isArray(extra)) return extra as Record<string, unknown>;
  return { detail: extra };
}

/** `destination`: where the lines go (tests pass a stream to read them); default stderr, written synchronously. */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const log = pino({ level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime }, destination ?? pino.destination({ dest: 2, sync: true }));
  return {
    info: (msg, extra) => log.info(fieldsOf(extra), msg),
    warn: (msg, extra) => log.warn(fieldsOf(extra), msg),
    error: (msg, extra) => log.error(fieldsOf(extra), msg),
    debug: (msg, extra) => log.debug(fieldsOf(extra), msg),
  };
}
