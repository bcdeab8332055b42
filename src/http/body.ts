// Reads a JSON request body with a size and a nesting cap: 415 unless application/json, 413 beyond the size cap, 400 on
// bad JSON or nesting deeper than json_max_depth (nothing downstream, zod, the store encoder or JSON.stringify, then
// walks caller JSON deep enough to overflow the stack). A body that never arrives whole is the client's doing, not
// an error of ours: 499 when the client closed the connection, 408 when the server's request timeout ended it.
import type { Context } from 'koa';
import { AppError, isAppError } from '../errors/app-error.js';
import { DOORS } from '../registry/groups/doors.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/** Whether JSON text nests arrays/objects more than `maxDepth` levels (a top-level object is level 1); string contents are skipped. */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === BACKSLASH) i++;
      else if (ch === QUOTE) inString = false;
    } else if (ch === QUOTE) inString = true;
    else if (OPENERS.has(ch)) {
      if (++depth > maxDepth) return true;
    } else if (CLOSERS.has(ch)) depth--;
  }
  return false;
}

/** The refusal for a request stream that failed before the body was complete. */
function incompleteBody(ctx: Context, cause: unknown): AppError {
  const timedOut = (ctx.req.socket as { errored?: { code?: string } | null }).errored?.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  return timedOut
    ? new AppError('request_timeout', `the request body did not arrive within ${DOORS.v.request_timeout_ms} ms`, { cause })
    : new AppError('client_closed_request', 'the client closed the connection before the request body was complete', { cause });
}

async function readText(ctx: Context, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw new AppError('payload_too_large', `the request body exceeds ${maxBytes} bytes`);
      chunks.push(chunk);
    }
  } catch (e) {
    if (isAppError(e) || ctx.req.complete) throw e;
    throw incompleteBody(ctx, e);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function readJsonBody(ctx: Context, maxBytes: number = DOORS.v.json_body_max_bytes, maxDepth: number = DOORS.v.json_max_depth): Promise<unknown> {
  if (!ctx.is('application/json')) throw new AppError('unsupported_media_type', 'the request body must be application/json');
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw new AppError('payload_too_large', `the request body exceeds ${maxBytes} bytes`);
  const text = await readText(ctx, maxBytes);
  if (nestsDeeperThan(text, maxDepth)) throw new AppError('validation_failed', `the request body nests arrays/objects more than ${maxDepth} levels deep`);
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('validation_failed', 'the request body is not valid JSON');
  }
}

/** An `application/x-www-form-urlencoded` body (an HTML form post), read within `maxBytes`. */
export async function readFormBody(ctx: Context, maxBytes: number): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded')) throw new AppError('unsupported_media_type', 'the request body must be application/x-www-form-urlencoded');
  return new URLSearchParams(await readText(ctx, maxBytes));
}
