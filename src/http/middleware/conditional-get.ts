// Conditional GET (RFC 9110 13.1.2): a 200 answer to GET/HEAD that carries an ETag the request's If-None-Match names
// becomes 304 Not Modified without a body. Koa's ctx.fresh does the header comparison; the routes set the ETags.
import type { Context, Next } from 'koa';

export async function conditionalGet(ctx: Context, next: Next): Promise<void> {
  await next();
  if ((ctx.method === 'GET' || ctx.method === 'HEAD') && ctx.status === 200 && ctx.response.get('ETag') && ctx.fresh) ctx.status = 304;
}
