// createHttpServer's limits, with millisecond values so they expire within a test: a partial body or partial headers
// get Node's 408 and the socket closes (the old server kept Node's 300 s default and held partial bodies > 110 s), the
// body reader records the timeout as 408 request_timeout (not a 500), and connections beyond the cap are dropped.
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { readJsonBody } from '../../src/http/body.js';
import { errorMiddleware } from '../../src/http/errors.js';
import { createHttpServer, type HttpServerLimits } from '../../src/http/http-server.js';

const FAST: HttpServerLimits = { requestTimeoutMs: 400, headersTimeoutMs: 200, checkIntervalMs: 50, maxConnections: 2 };
const closers: Array<() => void> = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

/** A Koa app reading a JSON body, recording what the reader threw (status and code) for each request. */
async function start(limits: HttpServerLimits): Promise<{ port: number; seen: Array<{ status: number; code: string }> }> {
  const seen: Array<{ status: number; code: string }> = [];
  const app = new Koa();
  app.silent = true;
  app.use(errorMiddleware(() => undefined));
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (e) {
      seen.push({ status: (e as { status: number }).status, code: (e as { code: string }).code });
      throw e;
    }
  });
  app.use(async (ctx) => {
    ctx.body = { got: await readJsonBody(ctx) };
  });
  const server = createHttpServer(app.callback(), limits);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return { port: (server.address() as AddressInfo).port, seen };
}

/** Opens a socket, writes `text`, and resolves with what came back once the server closed it (or null after `waitMs`). */
function sendAndWait(port: number, text: string, waitMs: number): Promise<{ reply: string; closedAfterMs: number } | null> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const sock: Socket = connect(port, '127.0.0.1', () => sock.write(text));
    let reply = '';
    sock.on('data', (c) => (reply += c.toString('latin1')));
    sock.on('error', () => undefined);
    sock.on('close', () => resolve({ reply, closedAfterMs: performance.now() - t0 }));
    setTimeout(() => {
      sock.destroy();
      resolve(null);
    }, waitMs);
  });
}

describe('createHttpServer(handler, limits)', () => {
  it('answers 408 and closes a connection whose body stops arriving, and the reader records request_timeout', async () => {
    const { port, seen } = await start(FAST);
    const r = await sendAndWait(port, 'POST /x HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":', 3_000);
    expect(r, 'connection still open').not.toBeNull();
    expect(r!.reply).toMatch(/^HTTP\/1\.1 408/);
    expect(r!.closedAfterMs).toBeLessThan(FAST.requestTimeoutMs + 5 * FAST.checkIntervalMs + 500);
    await new Promise((ok) => setTimeout(ok, 50));
    expect(seen).toEqual([{ status: 408, code: 'request_timeout' }]);
  });

  it('answers 408 to headers that stop arriving', async () => {
    const { port } = await start(FAST);
    const r = await sendAndWait(port, 'GET /x HTTP/1.1\r\nHost: a\r\nX-Slow: ', 3_000);
    expect(r?.reply ?? '').toMatch(/^HTTP\/1\.1 408/);
  });

  it('answers a request line and headers over the size limit 431 with the error body (was Node\'s bare 431, undocumented)', async () => {
    const { port } = await start(FAST);
    const r = await sendAndWait(port, `GET /x?cursor=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`, 3_000);
    expect(r!.reply).toMatch(/^HTTP\/1\.1 431/);
    const body = JSON.parse(r!.reply.slice(r!.reply.indexOf('\r\n\r\n') + 4)) as { error: { code: string } };
    expect(body.error.code).toBe('request_header_too_large');
  });

  it('answers a request Node cannot parse 400 validation_failed with the error body', async () => {
    const { port } = await start(FAST);
    const r = await sendAndWait(port, 'GET /x HTTP/1.1\r\nHost a\r\n\r\n', 3_000);
    expect(r!.reply).toMatch(/^HTTP\/1\.1 400/);
    expect(JSON.parse(r!.reply.slice(r!.reply.indexOf('\r\n\r\n') + 4)).error.code).toBe('validation_failed');
  });

  it('names the error body\'s request id in an X-Request-Id header too, as every other answer does', async () => {
    const { port } = await start(FAST);
    const r = await sendAndWait(port, 'GET /x HTTP/1.1\r\nHost a\r\n\r\n', 3_000);
    const head = r!.reply.slice(0, r!.reply.indexOf('\r\n\r\n'));
    const body = JSON.parse(r!.reply.slice(r!.reply.indexOf('\r\n\r\n') + 4)) as { error: { request_id: string } };
    expect(body.error.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(head).toContain(`\r\nX-Request-Id: ${body.error.request_id}\r\n`);
  });

  it('drops connections beyond maxConnections', async () => {
    const { port } = await start(FAST);
    const held = await Promise.all([0, 1].map(() => new Promise<Socket>((ok) => {
      const s = connect(port, '127.0.0.1', () => ok(s));
    })));
    closers.push(() => held.forEach((s) => s.destroy()));
    const third = await sendAndWait(port, 'GET /x HTTP/1.1\r\nHost: a\r\n\r\n', 1_000);
    expect(third, 'third connection was served').not.toBeNull();
    expect(third!.reply).toBe('');
  });

  it('with the registry defaults sets the timeouts and the cap on the server', () => {
    const server = createHttpServer(() => undefined);
    expect([server.requestTimeout, server.headersTimeout, server.maxConnections]).toEqual([20_000, 10_000, 512]);
  });
});
