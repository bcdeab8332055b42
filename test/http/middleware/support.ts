// Test helpers for auth/limit/guard/stream tests: a temp LMDB env, a tiny Koa app on 127.0.0.1:0, raw HTTP and SSE clients.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import type { RootDatabase } from 'lmdb';
import { errorMiddleware } from '../../../src/http/errors.js';
import { openEnv } from '../../../src/store/env.js';

export type TempEnv = { dir: string; env: RootDatabase; reopen(): Promise<RootDatabase>; dispose(): Promise<void> };

export function tempEnv(): TempEnv {
  const dir = mkdtempSync(join(tmpdir(), 'avm-auth-'));
  const t: TempEnv = {
    dir,
    env: openEnv(dir),
    async reopen() {
      await t.env.close();
      t.env = openEnv(dir);
      return t.env;
    },
    async dispose() {
      await t.env.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}

export type TestServer = { port: number; close(): Promise<void> };

/** Mounts the real error mapper first (as the app does), then `build` adds the middlewares under test. */
export async function serve(build: (app: Koa) => void): Promise<TestServer> {
  const app = new Koa();
  app.silent = true;
  app.use(errorMiddleware(() => undefined));
  build(app);
  const server: Server = createServer(app.callback());
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

export type RawResponse = { status: number; headers: Record<string, string>; body: string };

/**
 * One request over a raw socket, so tests control every header byte (forged Host, non-ASCII, odd spacing) that
 * fetch/http.request would refuse or rewrite (forged Host, or a path fetch would normalize: `/api/./x`, `%2F`). Header
 * values may be Buffers to send raw UTF-8 bytes; a body is sent as given (the caller sets Content-Length).
 */
export function rawRequest(port: number, o: { method?: string; path: string; headers?: Array<[string, string | Buffer]>; host?: string; body?: string }): Promise<RawResponse> {
  const headers: Array<[string, string | Buffer]> = [['Host', o.host ?? `127.0.0.1:${port}`], ...(o.headers ?? []), ['Connection', 'close']];
  const head = Buffer.concat([
    Buffer.from(`${o.method ?? 'GET'} ${o.path} HTTP/1.1\r\n`, 'latin1'),
    ...headers.map(([k, v]) => Buffer.concat([Buffer.from(`${k}: `, 'latin1'), Buffer.isBuffer(v) ? v : Buffer.from(v, 'latin1'), Buffer.from('\r\n')])),
    Buffer.from('\r\n'),
    Buffer.from(o.body ?? '', 'utf8'),
  ]);
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    sock.on('data', (c) => chunks.push(c));
    sock.on('error', reject);
    sock.on('end', () => resolve(parseResponse(Buffer.concat(chunks).toString('utf8'))));
    sock.write(head);
  });
}

function parseResponse(text: string): RawResponse {
  const [head, ...rest] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let body = rest.join('\r\n\r\n');
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

function dechunk(s: string): string {
  let out = '';
  let rest = s;
  for (;;) {
    const nl = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, nl), 16);
    if (!size) return out;
    out += rest.slice(nl + 2, nl + 2 + size);
    rest = rest.slice(nl + 2 + size + 2);
  }
}

export type SseMessage = { id?: string; event?: string; data: string; comment?: string };

export type SseClient = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  messages: SseMessage[];
  /** Resolves once `pred` holds over the received messages (each received chunk re-checks). */
  until(pred: (m: SseMessage[]) => boolean): Promise<SseMessage[]>;
  close(): void;
};

/** Opens an SSE stream with node:http and parses it incrementally (comments kept, so heartbeats are visible). */
export async function openSse(port: number, path: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      const messages: SseMessage[] = [];
      const waiters: Array<() => void> = [];
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let cut: number;
        while ((cut = buf.indexOf('\n\n')) >= 0) {
          messages.push(parseSseBlock(buf.slice(0, cut)));
          buf = buf.slice(cut + 2);
        }
        waiters.splice(0).forEach((w) => w());
      });
      res.on('error', () => undefined);
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        messages,
        until(pred) {
          return new Promise((ok) => {
            const check = (): void => (pred(messages) ? ok(messages) : void waiters.push(check));
            check();
          });
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

function parseSseBlock(block: string): SseMessage {
  const m: SseMessage = { data: '' };
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) m.comment = line.slice(1).trim();
    else if (line.startsWith('id: ')) m.id = line.slice(4);
    else if (line.startsWith('event: ')) m.event = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  m.data = data.join('\n');
  return m;
}
