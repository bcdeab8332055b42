// How the `avm` command reports a failure: one line for what an operator can fix (a taxonomy error such as a damaged
// store, a bad environment value, a port that cannot be listened on); a stack trace only for what is a bug.
import { ConfigError } from './config.js';
import { isAppError } from './errors/app-error.js';

const LISTEN_ERRORS: Record<string, string> = {
  EADDRINUSE: 'the address is already in use (another process listens there; stop it or set PORT)',
  EACCES: 'permission denied (a port below 1024 needs privileges; set PORT)',
  EADDRNOTAVAIL: 'the address is not available on this machine (check HOST)',
};

type ListenError = NodeJS.ErrnoException & { address?: string; port?: number };

/** The line printed after `avm: ` for `err`. */
export function describeCliFailure(err: unknown): string {
  if (isAppError(err)) return `${err.code}: ${err.message}`;
  if (err instanceof ConfigError) return err.message;
  const e = err as ListenError;
  if (e?.syscall === 'listen' && e.code !== undefined && e.code in LISTEN_ERRORS) {
    return `cannot listen on ${e.address ?? '?'}:${e.port ?? '?'}: ${LISTEN_ERRORS[e.code]} (${e.code})`;
  }
  return (err as Error)?.stack ?? String(err);
}
