// The one spelling of a request path: every guard, the router and the audit key on `ctx.path`, so a path is served
// only when it is already canonical. Any other spelling (case, trailing or doubled slash, percent-encoding, dot
// segments) is refused with 404 here, first, before any guard can disagree with the router about what it names.
import type { Context, Next } from 'koa';
import { AppError } from '../../errors/app-error.js';

/**
 * The canonical form of a raw request path: percent-escapes decoded, `.`/`..` segments resolved, empty segments
 * (doubled and trailing slashes) dropped, lower case. Null when an escape is malformed. Every route is declared in
 * this form (test/http/middleware/canonical-path.test.ts checks each operation's path).
 */
export function canonicalPath(raw: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const segments: string[] = [];
  for (const s of decoded.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') segments.pop();
    else segments.push(s);
  }
  return `/${segments.join('/')}`.toLowerCase();
}

/**
 * Mount first, right after the error middleware: 404 `not_found` for any path that is not its own canonical form;
 * when the canonical form is a served path (`isServed`), the refusal names it.
 */
export function canonicalPathGuard(isServed: (path: string) => boolean, opaqueIdPrefixes: readonly string[] = []) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const canonical = canonicalPath(ctx.path);
    if (canonical !== ctx.path && !isOpaqueIdPath(ctx.path, opaqueIdPrefixes)) {
      const details = canonical !== null && isServed(canonical) ? { canonical_path: canonical } : undefined;
      throw new AppError('not_found', `no route for ${ctx.method} ${ctx.path}: each path is served in one spelling only`, { details });
    }
    await next();
  };
}

/**
 * `<prefix>/<id>` where the prefix is one of `prefixes` spelled exactly and the id is one segment of [A-Za-z0-9_-]:
 * identifiers made by a library (OAuth interaction uids, client ids) are case-sensitive, so lower-casing them would
 * name another thing. Every other spelling of such a path (case of the prefix, trailing slash, escapes) is still refused.
 */
function isOpaqueIdPath(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((p) => path.startsWith(`${p}/`) && /^[A-Za-z0-9_-]+$/.test(path.slice(p.length + 1)));
}
