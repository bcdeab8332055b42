// A promotion and a snapshot switch reach every door at once (issue 12): while the service runs, another process
// promotes a new champion calibration, then ingests a new sales snapshot; the very next request on every valuation
// door (REST property and underwrite, MCP deep_underwrite_asset, get_comps and risk_report) answers under the new
// versions, whichever worker thread takes it.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/kernel/wasm.js';
import { startService, type ServiceHandle } from '../../src/server.js';
import { bearer, mcpClient, mintKey, roomyLimiter } from '../mcp/support.js';
import { testConfig } from '../support/corpus.js';
import { parcelPoints, servedCorpusDir } from '../support/served-corpus.js';

type Json = Record<string, any>;
type Seen = { calibration: string | null; snapshot: string | null };

let service: ServiceHandle;
let client: Client;
let dataDir: string;
let subject: { lat: number; lon: number; units: number };

/** Runs `code` (an ES module body) in another Node process with the compiled service modules at hand. */
function inOtherProcess(code: string): void {
  execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: repoRoot(), env: { ...process.env, AVM_LOG_LEVEL: 'silent' }, stdio: 'pipe' });
}

const dist = (p: string): string => JSON.stringify(join(repoRoot(), 'dist', 'src', p));

/** Every valuation door once, each answer reduced to the versions it was computed under. */
async function doors(): Promise<Record<string, Seen>> {
  const q = `lat=${subject.lat}&lon=${subject.lon}&units=${subject.units}`;
  const get = async (path: string): Promise<Json> => (await (await fetch(`${service.url}${path}`)).json()) as Json;
  const tool = async (name: string, args: Json): Promise<Json> => (await client.callTool({ name, arguments: args })).structuredContent as Json;
  const seen = (v: Json): Seen => ({ calibration: v.arv.interval?.version ?? null, snapshot: v.artifact.vintages.sales_snapshot });
  const at = { lat: subject.lat, lon: subject.lon, units: subject.units };
  const comps = await tool('get_comps', at);
  return {
    property: seen((await get(`/api/property?${q}`)).investor.valuation),
    underwrite: seen(await get(`/api/underwrite?${q}&price=250000`)),
    deep_underwrite_asset: seen((await tool('deep_underwrite_asset', at)).valuation),
    get_comps: { calibration: comps.calibrated_interval?.version ?? null, snapshot: (await get(`/api/property?${q}`)).investor.valuation.artifact.vintages.sales_snapshot },
  };
}

beforeAll(async () => {
  dataDir = await servedCorpusDir();
  const points = await parcelPoints(dataDir);
  // a parcel valued by Tier 1 under the champion (so its interval names the calibration version)
  service = await startService(testConfig(dataDir, { AVM_WORKERS: '2' }), { installSignalHandlers: false, limiter: roomyLimiter() });
  client = await mcpClient(service, bearer((await mintKey(service, ['read', 'underwrite'], 100_000)).token));
  for (const p of points.filter((_, i) => i % 97 === 0)) {
    const s = { lat: p.lat, lon: p.lon, units: p.units > 0 ? p.units : 1 };
    const v = ((await (await fetch(`${service.url}/api/property?lat=${s.lat}&lon=${s.lon}&units=${s.units}`)).json()) as Json).investor.valuation;
    if (v.arv.method_tier === 1 && v.arv.interval?.version) {
      subject = s;
      break;
    }
  }
}, 300_000);

afterAll(async () => {
  await client?.close();
  await service?.close();
});

describe('a new champion calibration and a new snapshot while the service runs', () => {
  it('every door answers under the new versions from the next request on', async () => {
    expect(subject, 'a calibrated subject').toBeDefined();
    const before = await doors();
    const first = before.property;
    expect(first.calibration).toBe('cal-test-1');
    for (const [door, s] of Object.entries(before)) expect(s, door).toEqual(first);

    // Another process promotes a challenger (same rows, new version), as `avm calibrate` would.
    inOtherProcess(`
      const { openStore } = await import(${dist('store/store.js')});
      const { openModelRegistry } = await import(${dist('registry/model-registry.js')});
      const store = openStore(${JSON.stringify(dataDir)});
      const reg = openModelRegistry(store);
      await reg.submit({ ...reg.championTable(), version: 'cal-test-2' }, { passed: true, checks: [] });
      await store.close();
    `);
    // Several rounds: each worker thread must see it, not only the one that happens to answer first.
    for (let round = 0; round < 3; round++) {
      for (const [door, s] of Object.entries(await doors())) expect(s, `${door} round ${round}`).toEqual({ calibration: 'cal-test-2', snapshot: first.snapshot });
    }

    // Another process ingests the raw files with one sale fewer: a new immutable snapshot, switched atomically.
    const salesCsv = join(dataDir, 'raw', 'ccao_parcel_sales.csv');
    writeFileSync(salesCsv, readFileSync(salesCsv, 'utf8').replace(/\n[^\n]+\n?$/, '\n'));
    execFileSync(process.execPath, [join(repoRoot(), 'dist', 'src', 'cli.js'), 'ingest', '--data-dir', dataDir], { env: { ...process.env, AVM_LOG_LEVEL: 'silent' }, stdio: 'pipe' });
    const after = await doors();
    const snapshot = after.property.snapshot;
    expect(snapshot).not.toBe(first.snapshot);
    for (let round = 0; round < 3; round++) {
      for (const [door, s] of Object.entries(round === 0 ? after : await doors())) expect(s, `${door} round ${round}`).toEqual({ calibration: 'cal-test-2', snapshot });
    }
  }, 600_000);
});
