// Minimal JSON GET over node:http/https with a separate, short TCP connect timeout so an offline portal fails fast.
// Every failure is an AppError `opendata_unreachable` whose details.reason names what happened.
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { AppError } from '../../errors/app-error.js';

export type GetOptions = { connectTimeoutMs: number; requestTimeoutMs: number; maxBytes?: number };

const DEFAULT_MAX_BYTES = 32 * 1024 * 1024; // a SODA page of 5,000 rows is ~2-3 MB; 32 MB refuses a runaway reply

function fail(reason: string, url: string, cause?: unknown): AppError {
  return new AppError('opendata_unreachable', `open-data request failed (${reason}): ${new URL(url).origin}`, { details: { reason }, cause });
}

/** GETs `url` and parses its JSON body. Rejects with opendata_unreachable on connect timeout, refusal, non-200, bad JSON. */
export function getJson(url: string, o: GetOptions): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const done = (err: AppError | null, value?: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(total);
      if (err) { req.destroy(); reject(err); } else resolve(value);
    };
    const u = new URL(url);
    const send = u.protocol === 'https:' ? httpsRequest : u.protocol === 'http:' ? httpRequest : null;
    if (!send) throw fail(`unsupported protocol ${u.protocol}`, url);
    const req: ClientRequest = send(u, { method: 'GET', headers: { accept: 'application/json' } }, (res) => onResponse(res, url, o, done));
    const total = setTimeout(() => done(fail(`no complete reply within ${o.requestTimeoutMs} ms`, url)), o.requestTimeoutMs);
    req.on('socket', (socket) => {
      if (!socket.connecting) return;
      const t = setTimeout(() => done(fail(`connect timeout ${o.connectTimeoutMs} ms`, url)), o.connectTimeoutMs);
      socket.once('connect', () => clearTimeout(t));
      socket.once('close', () => clearTimeout(t));
    });
    req.on('error', (e: NodeJS.ErrnoException) => done(fail(e.code ?? e.message, url, e)));
    req.end();
  });
}

function onResponse(res: IncomingMessage, url: string, o: GetOptions, done: (err: AppError | null, v?: unknown) => void): void {
  if (res.statusCode !== 200) {
    res.resume();
    done(fail(`HTTP ${res.statusCode}`, url));
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  res.on('data', (c: Buffer) => {
    size += c.length;
    if (size > (o.maxBytes ?? DEFAULT_MAX_BYTES)) done(fail('reply too large', url));
    else chunks.push(c);
  });
  res.on('error', (e) => done(fail('reply interrupted', url, e)));
  res.on('end', () => {
    try {
      done(null, JSON.parse(Buffer.concat(chunks).toString('utf8')));
    } catch (e) {
      done(fail('reply is not JSON', url, e));
    }
  });
}
