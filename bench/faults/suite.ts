// The kill -9 fault suite (issue 13): the service (node dist/src/cli.js serve, a temp data dir) is killed with SIGKILL
// N times while several keys write through the MCP door; then every acknowledged write is read back through the
// private endpoints (GET /api/state, GET /api/deals): lost, duplicated and other-owner-visible records are counted.
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { openKeyStore } from '../../src/auth/keys.js';
import { openEnv } from '../../src/store/env.js';
import { benchCorpus } from '../bench-corpus.js';
import { CLI, CLOSED_OPENDATA_URL, freePort, waitHealthy } from '../server-support.js';
import { verifyWriter, type Attempt, type ReadItem, type Verdict } from './ledger.js';
import { runWriter, type Writer } from './writers.js';

export type FaultSuiteOptions = { kills: number; writers: number; seed?: number; log?: (line: string) => void };

export type FaultSuiteResult = {
  kills: number; writers: number; acknowledged_writes: number; unacknowledged_in_flight: number;
  lost: number; duplicated: number; visible_to_another_owner: number; deals_checked: number;
  restart_ms_median: number; wall_s: number; loadavg_before: number[]; loadavg_after: number[];
  examples: { lost: string[]; duplicated: string[]; foreign: string[] };
};

/** Park-Miller: the kill delays are reproducible from the seed. */
function rng(seed: number): () => number {
  let s = seed % 2147483647 || 1;
  return () => (s = (s * 48271) % 2147483647) / 2147483647;
}

async function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string; startMs: number }> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: { ...process.env, AVM_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', AVM_LOG_LEVEL: 'error', AVM_BACKGROUND_JOBS: 'false', AVM_OPENDATA_BASE_URL: CLOSED_OPENDATA_URL },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    const t1 = await waitHealthy(url, child, 60_000);
    return { child, url, startMs: t1 - t0 };
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
}

const exited = (child: ChildProcess): Promise<unknown> => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', r)));

/** Every item of a paged private endpoint (`path` with its query) for one key, following next_cursor. */
async function readAllPages<T>(url: string, path: string, token: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const res = await fetch(`${url}${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
    const page = (await res.json()) as { items: T[]; next_cursor: string | null };
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

async function mintWriters(dataDir: string, n: number): Promise<Writer[]> {
  const env = openEnv(dataDir);
  try {
    const keys = openKeyStore(env);
    const out: Writer[] = [];
    for (let i = 0; i < n; i++) out.push({ index: i, token: (await keys.createKey({ scopes: ['read', 'write-state'], rpmLimit: 100_000 })).plaintext, next: 0 });
    return out;
  } finally {
    await env.close();
  }
}

/** One cycle: start, write for a random while (kill delay), kill -9 mid-write, wait for the writers to notice. */
async function killCycle(dataDir: string, writers: Writer[], ledger: Attempt[], delayMs: number): Promise<number> {
  const { child, url, startMs } = await startServer(dataDir);
  let dead = false;
  const running = writers.map((w) => runWriter(url, w, ledger, () => dead));
  await new Promise((r) => setTimeout(r, delayMs));
  child.kill('SIGKILL');
  await exited(child);
  dead = true;
  await Promise.all(running);
  return startMs;
}

export async function runFaultSuite(o: FaultSuiteOptions): Promise<FaultSuiteResult> {
  const log = o.log ?? (() => undefined);
  const t0 = performance.now();
  const loadBefore = loadavg();
  const corpus = await benchCorpus(undefined, 'test');
  try {
    const writers = await mintWriters(corpus.dir, o.writers);
    const ledger: Attempt[] = [];
    const random = rng(o.seed ?? 20261121);
    const starts: number[] = [];
    for (let k = 1; k <= o.kills; k++) {
      starts.push(await killCycle(corpus.dir, writers, ledger, 150 + Math.floor(random() * 450)));
      if (k % 10 === 0 || k === o.kills) log(`kill ${k}/${o.kills}: ${ledger.filter((a) => a.acked).length} acknowledged writes so far`);
    }
    const { child, url } = await startServer(corpus.dir);
    let verdicts: Verdict[];
    let dealsChecked = 0;
    try {
      verdicts = [];
      for (const w of writers) {
        const owner = `key:${w.token.split('_')[1]}`;
        const items = await readAllPages<ReadItem>(url, '/api/state?limit=100', w.token);
        const v = verifyWriter(w.index, owner, items, ledger);
        // GET /api/deals lists exactly the owner's favorites, none twice.
        const deals = (await readAllPages<{ favorite: { id: string } }>(url, '/api/deals?limit=25', w.token)).map((d) => d.favorite.id);
        const favorites = items.filter((i) => i.kind === 'favorite').map((i) => i.id);
        if (new Set(deals).size !== deals.length) v.duplicated.push(`deals of writer ${w.index}`);
        if ([...deals].sort().join() !== [...favorites].sort().join()) v.lost.push(`deals of writer ${w.index}: ${deals.length} deals, ${favorites.length} favorites`);
        dealsChecked += deals.length;
        verdicts.push(v);
      }
    } finally {
      child.kill('SIGTERM');
      await exited(child);
    }
    starts.sort((a, b) => a - b);
    const sum = (f: (v: Verdict) => number): number => verdicts.reduce((n, v) => n + f(v), 0);
    return {
      kills: o.kills, writers: o.writers, acknowledged_writes: sum((v) => v.acked), unacknowledged_in_flight: sum((v) => v.unacked),
      lost: sum((v) => v.lost.length + v.stale.length), duplicated: sum((v) => v.duplicated.length), visible_to_another_owner: sum((v) => v.foreign.length),
      deals_checked: dealsChecked, restart_ms_median: Math.round(starts[Math.floor(starts.length / 2)] ?? 0), wall_s: Math.round((performance.now() - t0) / 1000),
      loadavg_before: loadBefore.map((x) => Number(x.toFixed(2))), loadavg_after: loadavg().map((x) => Number(x.toFixed(2))),
      examples: { lost: verdicts.flatMap((v) => [...v.lost, ...v.stale]).slice(0, 5), duplicated: verdicts.flatMap((v) => v.duplicated).slice(0, 5), foreign: verdicts.flatMap((v) => v.foreign).slice(0, 5) },
    };
  } finally {
    corpus.cleanup();
  }
}
