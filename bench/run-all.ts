// `npm run bench`: runs every benchmark module in turn (each writes bench/results/<name>.json).
// Pass names to run a subset: `npm run bench -- kernel coldstart`.
const BENCHES: Record<string, () => Promise<{ run: (opts?: Record<string, unknown>) => Promise<unknown> }>> = {
  generate: () => import('./generate.bench.js'),
  realism: () => import('./realism.bench.js'),
  ingest: () => import('./ingest.bench.js'),
  coldstart: () => import('./coldstart.bench.js'),
  valuation: () => import('./valuation.bench.js'),
  kernel: () => import('./kernel.bench.js'),
  load: () => import('./load.bench.js'),
  'listings-run': () => import('./listings-run.bench.js'),
  'score-all': () => import('./score-all.bench.js'),
  fuzz: () => import('./fuzz.bench.js'),
  faults: () => import('./faults.bench.js'),
  accuracy: () => import('./accuracy.bench.js'),
  peers: () => import('./peers.bench.js'),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length > 0 ? wanted : Object.keys(BENCHES);
let failed = 0;
for (const name of names) {
  const load = BENCHES[name];
  if (!load) {
    process.stderr.write(`unknown benchmark ${name}; known: ${Object.keys(BENCHES).join(', ')}\n`);
    failed++;
    continue;
  }
  process.stderr.write(`\n== bench ${name} ==\n`);
  try {
    const mod = await load();
    const out = await mod.run();
    process.stdout.write(`${JSON.stringify({ bench: name, result: out }, null, 2)}\n`);
  } catch (err) {
    failed++;
    process.stderr.write(`bench ${name} failed: ${(err as Error).stack ?? err}\n`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
