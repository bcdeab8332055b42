// Test support for alerts: temp LMDB stores, a real loopback receiver with scripted behaviour, and row fixtures.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAlertStore, type AlertStore } from '../../src/alerts/store.js';
import type { ScoredRow, ModelVersions } from '../../src/alerts/payload.js';
import { openEnv } from '../../src/store/env.js';

export type TempStore = { dir: string; store: AlertStore; close: () => Promise<void> };

export function tempStore(): TempStore {
  const dir = mkdtempSync(join(tmpdir(), 'avm-alerts-'));
  const env = openEnv(dir);
  return {
    dir,
    store: openAlertStore(env),
    close: async () => {
      await env.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type Received = { path: string; headers: http.IncomingHttpHeaders; body: string; at: number };
/** What the receiver does with request n (0-based): answer a status, hang, reset the socket, or redirect. */
export type Behaviour = { kind: 'status'; status: number; body?: string } | { kind: 'hang' } | { kind: 'reset' } | { kind: 'redirect'; status: number; location: string };

export type Receiver = { url: string; received: Received[]; close: () => Promise<void> };

/** A real HTTP server on 127.0.0.1, port 0, scripted per request; records every request it reads in full. */
export async function startReceiver(script: (n: number, r: Received) => Behaviour): Promise<Receiver> {
  const received: Received[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const n = received.push(r) - 1;
      const b = script(n, r);
      if (b.kind === 'hang') return;
      if (b.kind === 'reset') return void req.socket.destroy();
      if (b.kind === 'redirect') return void res.writeHead(b.status, { location: b.location }).end();
      res.writeHead(b.status, { 'content-type': 'text/plain' }).end(b.body ?? '');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export const MODEL: ModelVersions = { model: 'avm-2026.11.1', underwrite: 'uw-3.2.0', serving: 'svc-1.0.0' };

/** A point-actionable row inside the Chicago test bbox; override any field. */
export function row(over: Partial<ScoredRow> & { listing_id: string }): ScoredRow {
  return {
    address: `${over.listing_id} W Test St`,
    zip: '60623',
    price: 200_000,
    url: `https://listings.example/${over.listing_id}`,
    lat: 41.85,
    lon: -87.7,
    point_actionable: true,
    percentiles: { flip: 70, brrrr: 80, hold: 60, house_hack: 50 },
    confidence: 72,
    arv: 260_000,
    arv_method: 'renovated_comps',
    model_versions: MODEL,
    ...over,
  };
}

/** A valid profile body (spec fields) posting to `url`. */
export function profileBody(url: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'p1',
    name: 'West side BRRRR',
    strategy: 'brrrr',
    min_percentile: 75,
    max_price: 300_000,
    min_confidence: 60,
    bbox: [-87.94, 41.64, -87.52, 42.02],
    channels: { webhook: { url, secret: 'receiver_secret_0123456789' } },
    ...over,
  };
}

/** Durably queues one webhook alert for `profileId` carrying one match; returns its id. */
export async function queueWebhookAlert(store: AlertStore, profileId: string, listingId: string, priceUsd: number, now = new Date('2026-11-20T13:05:00Z')): Promise<string> {
  const { buildAlertPayload, matchFromRow } = await import('../../src/alerts/payload.js');
  const { enqueueAlerts, newOutboxRecord } = await import('../../src/alerts/outbox.js');
  const payload = buildAlertPayload({ profile: { id: profileId, name: 'test' }, strategy: 'brrrr', asOf: now, modelVersions: MODEL, matches: [matchFromRow(row({ listing_id: listingId, price: priceUsd }))] });
  const rec = newOutboxRecord({ idempotencyKey: `${profileId}:webhook:${listingId}:${priceUsd}`, profileId, channel: 'webhook', body: JSON.stringify(payload), now });
  await enqueueAlerts(store, [rec]);
  return rec.id;
}

/**
 * Polls `check` on real event-loop turns (setImmediate is never faked here) until it stops throwing. Unlike
 * vi.waitFor, it does not advance fake timers, so tests keep exact control of the fake clock.
 */
export async function until(check: () => void, realMs = 5_000): Promise<void> {
  const deadline = performance.now() + realMs;
  for (;;) {
    try {
      check();
      return;
    } catch (e) {
      if (performance.now() > deadline) throw e;
      await new Promise<void>((r) => setImmediate(r));
    }
  }
}
