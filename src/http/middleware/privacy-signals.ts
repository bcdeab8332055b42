// Do-Not-Track and Global Privacy Control opt a visitor out of the public app's analytics before anything is read
// (spec, REST: "Do-Not-Track and Global Privacy Control signals opt out before the body is parsed"): a POST to the
// analytics path carrying `DNT: 1` or `Sec-GPC: 1` is answered 204 here, before the operation guard reads the body, so
// the body is never read, validated or stored. The answer is the same 204 an accepted event gets: the page cannot tell.
import type { Context, Next } from 'koa';
import { operationById } from '../../contracts/operations.js';

const ANALYTICS = operationById('analytics_event')!;

/** `DNT: 1` (Do-Not-Track) or `Sec-GPC: 1` (Global Privacy Control, its header form). */
export function sendsOptOut(headers: Record<string, string | string[] | undefined>): boolean {
  return headers.dnt === '1' || headers['sec-gpc'] === '1';
}

export async function privacySignalGuard(ctx: Context, next: Next): Promise<void> {
  if (ctx.method !== ANALYTICS.rest!.method || ctx.path !== ANALYTICS.rest!.path || !sendsOptOut(ctx.req.headers)) return next();
  ctx.state.operationId = ANALYTICS.id;
  ctx.status = 204;
}
