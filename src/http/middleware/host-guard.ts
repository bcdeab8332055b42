// DNS-rebinding protection for /mcp and /api/events: Host must be an allowed authority, Origin (if sent) an allowed origin.
import type { Context, Middleware, Next } from 'koa';
import { AppError } from '../../errors/app-error.js';

export type HostGuardOptions = {
  /** The listening port; a function so a server started on port 0 can report its real port after listen. */
  port: number | (() => number);
  /** Extra allowed Host values, exact `host[:port]` (config AVM_ALLOWED_HOSTS). */
  allowedHosts?: readonly string[];
  /** Extra allowed Origin values, exact `scheme://host[:port]` (config AVM_ALLOWED_ORIGINS). */
  allowedOrigins?: readonly string[];
};

/**
 * Allowed hosts: 127.0.0.1:<port>, localhost:<port>, [::1]:<port>, plus `allowedHosts`. Allowed origins: http:// and
 * https:// of every allowed host (a page served from an allowed host is not a rebinding attacker) plus `allowedOrigins`.
 * An Origin of `null` (sandboxed frames, file://) is refused. Matching is exact and case-insensitive.
 */
export function hostGuardCheck(opts: HostGuardOptions, host: unknown, origin: unknown): AppError | null {
  const port = typeof opts.port === 'function' ? opts.port() : opts.port;
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, ...(opts.allowedHosts ?? [])].map(norm));
  if (typeof host !== 'string' || !hosts.has(norm(host))) {
    return new AppError('forbidden_host', 'Host header not allowed');
  }
  if (origin === undefined) return null;
  const origins = new Set([...[...hosts].flatMap((h) => [`http://${h}`, `https://${h}`]), ...(opts.allowedOrigins ?? []).map(norm)]);
  if (typeof origin !== 'string' || !origins.has(norm(origin))) {
    return new AppError('forbidden_host', 'Origin header not allowed');
  }
  return null;
}

export function hostGuard(opts: HostGuardOptions): Middleware {
  return async (ctx: Context, next: Next) => {
    const refusal = hostGuardCheck(opts, ctx.req.headers.host, ctx.req.headers.origin);
    if (refusal) throw refusal;
    await next();
  };
}

function norm(s: string): string {
  return s.trim().toLowerCase().replace(/\/+$/, '');
}
