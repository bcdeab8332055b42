// Reads a JSON request body with a size cap: 415 unless application/json, 413 beyond the cap, 400 on bad JSON.
import type { Context } from 'koa';
import { AppError } from '../errors/app-error.js';
import { DOORS } from '../registry/groups/doors.js';

export async function readJsonBody(ctx: Context, maxBytes: number = DOORS.v.json_body_max_bytes): Promise<unknown> {
  if (!ctx.is('application/json')) throw new AppError('unsupported_media_type', 'the request body must be application/json');
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw new AppError('payload_too_large', `the request body exceeds ${maxBytes} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new AppError('payload_too_large', `the request body exceeds ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('validation_failed', 'the request body is not valid JSON');
  }
}
