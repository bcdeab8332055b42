// Three replicas of the real service on one PostgreSQL database (issue 18): an owner key created on replica A works on
// B and C; a favorite (MCP tool) and a profile (REST) written on A are read on B and streamed to B's SSE client, and C
// resumes the stream by Last-Event-ID; a replica killed with SIGKILL during a burst of writes loses none that it
// acknowledged (every 2xx is readable afterwards from another replica). Needs `npm run build` (dist/src/cli.js).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCluster, type LocalCluster } from '../../../bench/pg-cluster.js';
import { AUTH_LIMITS } from '../../../src/registry/groups/auth.js';
import { runCli } from '../../support/cli.js';
import { startReplicas, type ReplicaSet } from '../../support/replicas.js';
import { PG_AVAILABLE } from '../../support/pg-backends.js';

const PROFILE = { strategy: 'brrrr', min_percentile: 70, max_price: 400000, min_confidence: 50, bbox: [-87.8, 41.8, -87.6, 41.95], criteria: { telegram_chat_id: '4242' }, channels: { telegram: true } };
const auth = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });
const json = (key: string): Record<string, string> => ({ ...auth(key), 'content-type': 'application/json' });

/** An SSE client: every `data:` record and named event it has received so far. */
function sseClient(url: string, headers: Record<string, string>): { records: Array<{ id: number; kind: string; payload: { id?: string } }>; events: string[]; close(): void } {
  const ctl = new AbortController();
  const out = { records: [] as Array<{ id: number; kind: string; payload: { id?: string } }>, events: [] as string[], close: () => ctl.abort() };
  void (async () => {
    const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: ctl.signal });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += value;
      let cut;
      while ((cut = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event) out.events.push(event);
        else if (data) out.records.push(JSON.parse(data));
      }
    }
  })().catch(() => undefined);
  return out;
}

async function until<T>(what: string, probe: () => T | undefined | false, limitMs = 15_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() - t0 > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!PG_AVAILABLE)('three replicas on one PostgreSQL database', () => {
  let cluster: LocalCluster;
  let set: ReplicaSet;
  let databaseUrl: string;
  let operatorKey: string;

  beforeAll(async () => {
    cluster = await startLocalCluster();
    databaseUrl = cluster.createDatabase('replicas');
    set = await startReplicas(3, { databaseUrl });
    // The operator's first key, issued by the CLI straight into the shared database.
    const cli = await runCli(['keys', 'create', '--scopes', 'read,write-state', '--rpm', String(AUTH_LIMITS.v.key_max_rpm)], { AVM_DATABASE_URL: databaseUrl, AVM_DATA_DIR: set.replicas[0].dataDir });
    expect(cli.code).toBe(0);
    operatorKey = /API key \(shown once, store it now\): (avm_\S+)/.exec(cli.stdout)![1];
  }, 240_000);
  afterAll(async () => {
    await set?.stopAll();
    cluster?.stop();
  });

  /** A new owner key made on replica `i` by the operator key (POST /api/me/keys). */
  const ownerKeyOn = async (i: number, label: string): Promise<string> => {
    const res = await fetch(`${set.url(i)}/api/me/keys`, { method: 'POST', headers: json(operatorKey), body: JSON.stringify({ scopes: ['read', 'write-state'], label }) });
    expect(res.status).toBe(201);
    return ((await res.json()) as { secret: string }).secret;
  };

  it('a write on replica A is read on B, streamed to B\'s SSE client, and replayed by Last-Event-ID on C', async () => {
    const key = await ownerKeyOn(0, 'owner on A');
    const onB = sseClient(`${set.url(1)}/api/events`, auth(key));
    await until('B\'s replay to end', () => onB.events.includes('replayed'));

    const mcp = new Client({ name: 'replicas', version: '0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${set.url(0)}/mcp`), { requestInit: { headers: auth(key) } }));
    const t0 = performance.now();
    const saved = (await mcp.callTool({ name: 'save_favorite_property', arguments: { property_id: 'LST-REPLICA-1' } })) as unknown as { structuredContent: { record: { id: string } } };
    await mcp.close();
    const streamed = await until('the favorite on B\'s stream', () => onB.records.find((r) => r.kind === 'favorite_saved'));
    const crossMs = performance.now() - t0;
    expect(streamed.payload.id).toBe(saved.structuredContent.record.id);

    const created = await fetch(`${set.url(0)}/api/me/profiles`, { method: 'POST', headers: json(key), body: JSON.stringify({ ...PROFILE, name: 'from A' }) });
    expect(created.status).toBe(201);
    const profileEvent = ((await created.json()) as { event_id: number }).event_id;
    await until('the profile on B\'s stream', () => onB.records.find((r) => r.id === profileEvent));

    const state = (await (await fetch(`${set.url(1)}/api/state`, { headers: auth(key) })).json()) as { items: Array<{ kind: string; id: string }> };
    expect(state.items.map((i) => i.kind).sort()).toEqual(['favorite', 'profile']);
    expect(state.items.find((i) => i.kind === 'favorite')!.id).toBe('p:LST-REPLICA-1');

    const onC = sseClient(`${set.url(2)}/api/events`, { ...auth(key), 'last-event-id': String(streamed.id - 1) });
    await until('C\'s replay', () => onC.events.includes('replayed'));
    expect(onC.records.map((r) => r.id)).toEqual([streamed.id, profileEvent]);
    onB.close();
    onC.close();
    console.log(`favorite written on A reached B's SSE client ${crossMs.toFixed(0)} ms after the call began`);
  }, 60_000);

  it('a keys page served by replica A is accepted when its form is posted to replica B (a shared form-token key)', async () => {
    const key = await ownerKeyOn(0, 'page owner');
    const page = await fetch(`${set.url(0)}/keys`);
    const nonce = /^avm_keys_csrf=([A-Za-z0-9_-]{22});/.exec(page.headers.get('set-cookie') ?? '')![1];
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1];
    const form = new URLSearchParams({ csrf, action: 'create', owner_key: key, scopes: 'read', label: 'made on B' });
    const res = await fetch(`${set.url(1)}/keys/actions`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `avm_keys_csrf=${nonce}` }, body: form.toString() });
    expect(res.status).toBe(201);
    expect(await res.text()).toMatch(/<code>avm_[0-9a-f]{12}_[A-Za-z0-9_-]{43}<\/code>/);
  }, 30_000);

  it('kill -9 of a replica during a burst of writes loses none it acknowledged', async () => {
    const key = await ownerKeyOn(2, 'burst owner');
    const acked: Array<{ id: string; replica: number }> = [];
    let failed = 0;
    let killed = false;
    const write = async (n: number): Promise<void> => {
      const replica = n % 2; // replicas 0 and 1 take the writes; replica 1 is killed mid-burst
      try {
        const res = await fetch(`${set.url(replica)}/api/me/profiles`, { method: 'POST', headers: json(key), body: JSON.stringify({ ...PROFILE, id: `burst-${n}`, name: `burst ${n}` }) });
        if (res.status === 201) acked.push({ id: `burst-${n}`, replica });
        else failed++;
      } catch {
        failed++; // the connection died with the replica: not acknowledged, so nothing is promised
      }
    };
    const inFlight = new Set<Promise<void>>();
    for (let n = 0; n < 90; n++) {
      if (!killed && acked.filter((a) => a.replica === 1).length >= 10) {
        killed = true;
        void set.kill9(1);
      }
      const p = write(n).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= 6) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    expect(killed).toBe(true);
    expect(failed).toBeGreaterThan(0); // writes sent to the dead replica were refused, not silently taken
    const onKilled = acked.filter((a) => a.replica === 1).length;
    expect(onKilled).toBeGreaterThanOrEqual(10);

    const stored = new Set<string>();
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${cursor}` : '';
      const page = (await (await fetch(`${set.url(2)}/api/state?kind=profile&limit=50${q}`, { headers: auth(key) })).json()) as { items: Array<{ id: string }>; next_cursor: string | null };
      for (const it of page.items) stored.add(it.id);
      cursor = page.next_cursor;
    } while (cursor);
    const lost = acked.filter((a) => !stored.has(a.id));
    expect(lost).toEqual([]);
    console.log(`burst: ${acked.length} acknowledged (${onKilled} by the killed replica), ${failed} refused or cut, ${stored.size} stored, 0 lost`);

    const back = await set.restart(1);
    expect((await fetch(`${back.url}/api/state?kind=profile&limit=1`, { headers: auth(key) })).status).toBe(200);
  }, 120_000);
});
