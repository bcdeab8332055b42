// Writes data/openapi-examples.json: one real response body per JSON operation of the REST door, for the OpenAPI
// document's examples (contracts/openapi-examples.ts). Every example is what the service answered: the default-scale
// synthetic corpus (seed 20261121, prepared as a first start prepares it), one listings run, then one request per
// operation. Arrays are cut (trimExample: lists to EXAMPLE_ARRAY_ITEMS items, geometry kept valid) and long texts
// shortened so the document stays small, and an answer still over EXAMPLE_MAX_BYTES gets no example; nothing else is
// edited. An answer at another status than the operation's documented one (a 400 for a missing body, a 500) writes
// nothing: the script fails naming the operations. The key operations create a key, rotate it, then revoke the rotated
// one (never the key the script calls with).
// Run: `npm run build` (the valuation workers load dist/), then `npx tsx scripts/openapi-examples.ts` (35 s to 2 min on
// 2 cores), then commit the file.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openKeyStore } from '../src/auth/keys.js';
import { OPERATIONS } from '../src/contracts/operations.js';
import { EXAMPLE_ARRAY_ITEMS, EXAMPLE_MAX_BYTES, EXAMPLES_FILE, trimExample } from '../src/contracts/openapi-examples.js';
import { startService } from '../src/server.js';
import { workerEntryPath } from '../src/workers/pool.js';
import { defaultCorpusDir, testConfig } from '../test/support/corpus.js';

const REPO_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const OPERATOR = 'openapi-examples-operator-secret-0123456789';

/** Inputs for the operations that take some: a point on the corpus, and a small page. */
const QUERIES: Record<string, Record<string, string>> = {
  underwrite_rest: { lat: '41.88', lon: '-87.7', price: '250000', units: '2' },
  property: { lat: '41.88', lon: '-87.7', units: '2' },
  admin_analytics: { days: '7' },
  state: { limit: '2' },
  deals: { limit: '2' },
};
const BODIES: Record<string, unknown> = {
  create_profile_rest: { name: 'West side BRRRR', strategy: 'brrrr', min_percentile: 80, max_price: 300000, min_confidence: 40, bbox: [-87.8, 41.8, -87.6, 41.95], criteria: { telegram_chat_id: '4242' }, channels: { telegram: true } },
  run_listings: {},
  // a consented page view (answered 204, no example of its own), so the analytics example counts one
  analytics_event: { consent: 'analytics-v1', session: 'exampleTab01', kind: 'page_view', page: 'map' },
  create_my_key: { scopes: ['read'], label: 'example laptop' },
};
/** Bodies naming a key the run made: rotate the created key, revoke the key that rotation issued. */
const KEY_OF: Record<string, string> = { rotate_my_key: 'create_my_key', revoke_my_key: 'rotate_my_key' };

async function main(): Promise<void> {
  workerEntryPath(); // throws "run npm run build" before a minute of corpus work, not as 500s in the examples
  const dataDir = await defaultCorpusDir();
  const service = await startService(testConfig(dataDir, { WRITE_SECRET: OPERATOR }), { installSignalHandlers: false });
  const key = (await openKeyStore(service.svc.store.env).createKey({ scopes: ['read', 'underwrite', 'write-state', 'webhooks'] })).plaintext;
  const examples: Record<string, { status: number; body: unknown }> = {};
  const skipped: string[] = [];
  const wrongStatus: string[] = [];
  const bodyOf = (id: string): unknown => {
    if (!KEY_OF[id]) return BODIES[id] ?? {};
    return { key_id: (examples[KEY_OF[id]]?.body as { key: { id: string } } | undefined)?.key.id };
  };
  const send = async (op: (typeof OPERATIONS)[number]): Promise<void> => {
    const rest = op.rest!;
    const auth = op.scope === 'operator' ? OPERATOR : key;
    const url = `${service.url}${rest.path}${rest.from === 'query' && QUERIES[op.id] ? `?${new URLSearchParams(QUERIES[op.id])}` : ''}`;
    const res = await fetch(url, rest.method === 'GET'
      ? { headers: { Authorization: `Bearer ${auth}` } }
      : { method: 'POST', headers: { Authorization: `Bearer ${auth}`, 'Content-Type': 'application/json' }, body: JSON.stringify(bodyOf(op.id)) });
    if (res.status !== rest.status) wrongStatus.push(`${op.id}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
    if (res.status !== rest.status || !(res.headers.get('content-type') ?? '').includes('application/json')) return;
    const body = trimExample(await res.json());
    if (JSON.stringify(body).length > EXAMPLE_MAX_BYTES) skipped.push(op.id);
    else examples[op.id] = { status: res.status, body };
  };
  try {
    // The listings run first, so listings, inventory and deals are the scored rows it wrote; one analytics event next.
    await send(OPERATIONS.find((o) => o.id === 'run_listings')!);
    await send(OPERATIONS.find((o) => o.id === 'analytics_event')!);
    const first = new Set(['run_listings', 'analytics_event', 'openapi']);
    for (const op of OPERATIONS) if (op.rest && op.rest.produces !== 'sse' && !first.has(op.id)) await send(op);
    // The one error body, as a request with an unknown query parameter gets it.
    const bad = await fetch(`${service.url}/api/health?unknown=1`);
    examples.error_body = { status: bad.status, body: await bad.json() };
  } finally {
    await service.close();
  }
  if (wrongStatus.length > 0) throw new Error(`not at their documented status, nothing written:\n${wrongStatus.join('\n')}`);
  const out = resolve(REPO_DIR, EXAMPLES_FILE);
  writeFileSync(out, `${JSON.stringify({ generated_by: 'scripts/openapi-examples.ts', corpus: 'synthetic default scale, seed 20261121', array_items: EXAMPLE_ARRAY_ITEMS, max_bytes: EXAMPLE_MAX_BYTES, skipped, examples }, null, 2)}\n`);
  console.log(JSON.stringify({ out, operations: Object.keys(examples).length, skipped, bytes: JSON.stringify(examples).length }));
}

await main();
