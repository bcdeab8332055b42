// The request id: a sane incoming X-Request-Id is kept (so a proxy's or client's id follows the request through logs,
// audit and error bodies), anything else is replaced by a generated UUID; it is returned in the X-Request-Id header.
import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { DOORS } from '../../registry/groups/doors.js';

const SANE_ID = new RegExp(`^[A-Za-z0-9._:-]{1,${DOORS.v.request_id_max_chars}}$`);

/** The incoming id when it is one header value of 1..request_id_max_chars characters from [A-Za-z0-9._:-]; else null. */
export function acceptedRequestId(header: string | string[] | undefined): string | null {
  return typeof header === 'string' && SANE_ID.test(header) ? header : null;
}

/** The request's id, assigned on first call (ctx.state.requestId and the response header); the same id after that. */
export function assignRequestId(ctx: Context): string {
  if (typeof ctx.state.requestId === 'string') return ctx.state.requestId;
  const id = acceptedRequestId(ctx.req.headers['x-request-id']) ?? randomUUID();
  ctx.state.requestId = id;
  ctx.set('X-Request-Id', id);
  return id;
}
