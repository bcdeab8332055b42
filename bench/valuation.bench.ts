// One full in-process valuation (subject resolution, kernel comp searches for ARV / as-is / ceiling, ladder, rehab,
// tax, artifact, inputs hash, invariant check): median and p99 on the county-scale corpus when one is given
// (opts.dataDir or AVM_BENCH_DATA_DIR), else on the default corpus (generated into a temp dir). Target p99 ≤ 0.5 ms.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { constants as perfConstants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { generateCorpus } from '../src/ingest/generate/generate.js';
import { ingestAll } from '../src/ingest/ingest.js';
import { hasCorpus, openStore } from '../src/store/store.js';
import { buildValuationContext, type ValuationContext } from '../src/valuation/value-context.js';
import { valueProperty, type ValueInput } from '../src/valuation/value.js';
import { writeBenchResult } from './results-file.js';
import { strideSubjects } from './valuation-subjects.js';

/** Issue 17 (supersedes issue 4's 1 ms): one full valuation in-process, p99 at county scale, tinybench wall time, load ≤ 2. */
const TARGET_P99_US = 500;

const us = (ms: number | undefined): number | null => (ms === undefined ? null : Math.round(ms * 1000 * 10) / 10);

async function corpusDir(given: string | undefined): Promise<{ dir: string; label: string; cleanup: () => void }> {
  if (given) {
    if (!hasCorpus(given)) throw new Error(`${given} holds no ingested corpus`);
    return { dir: given, label: given, cleanup: () => undefined };
  }
  const dir = mkdtempSync(join(tmpdir(), 'avm-valuation-bench-'));
  await generateCorpus({ seed: 20261121, scale: 'default', outDir: dir });
  await ingestAll({ dataDir: dir, rawDir: join(dir, 'raw') });
  return { dir, label: 'default (generated)', cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

async function latency(cases: ValueInput[], ctx: ValuationContext) {
  cases.forEach((s) => valueProperty(s, ctx)); // builds the lazy lookup maps; not timed
  let i = 0;
  const outcomes: Record<string, number> = {};
  const bench = new Bench({ name: 'valuation', iterations: cases.length, time: 0, warmupIterations: Math.min(200, cases.length) });
  bench.add('valueProperty', () => {
    const v = valueProperty(cases[i++ % cases.length], ctx);
    outcomes[v.display!.outcome] = (outcomes[v.display!.outcome] ?? 0) + 1;
  });
  const gc = await gcDuring(() => bench.run());
  const res = bench.tasks[0].result;
  if (res.state !== 'completed') throw new Error(`valuation bench: ${res.state}`);
  return { median_us: us(res.latency.p50), p99_us: us(res.latency.p99), mean_us: us(res.latency.mean), cpu: cpuLatency(cases, ctx), gc_during_run: gc, outcomes };
}

/**
 * Garbage collections during the tinybench run (warm-up included), beside its figures (not a filter on them): how
 * many scavenges and major GCs the samples had to share, and their pause total — the allocation side of the tail.
 */
async function gcDuring(run: () => Promise<unknown>): Promise<{ minor: number; major: number; pause_ms_total: number; pause_ms_max: number }> {
  const entries: PerformanceEntry[] = [];
  const obs = new PerformanceObserver((list) => entries.push(...list.getEntries()));
  obs.observe({ entryTypes: ['gc'] });
  await run();
  await new Promise((resolve) => setTimeout(resolve, 50)); // the observer is told asynchronously
  entries.push(...obs.takeRecords());
  obs.disconnect();
  const kind = (e: PerformanceEntry) => ((e as PerformanceEntry & { detail?: { kind?: number } }).detail)?.kind;
  const ms = (x: number) => Math.round(x * 100) / 100;
  return {
    minor: entries.filter((e) => kind(e) === perfConstants.NODE_PERFORMANCE_GC_MINOR).length,
    major: entries.filter((e) => kind(e) === perfConstants.NODE_PERFORMANCE_GC_MAJOR).length,
    pause_ms_total: ms(entries.reduce((a, e) => a + e.duration, 0)),
    pause_ms_max: ms(entries.reduce((a, e) => Math.max(a, e.duration), 0)),
  };
}

/**
 * CPU time per valuation (process.cpuUsage around each call, µs resolution): on a shared machine (load above the
 * core count) wall-clock p99 is dominated by the scheduler taking the core away; CPU time is what the code costs.
 */
function cpuLatency(cases: ValueInput[], ctx: ValuationContext) {
  const cpu: number[] = [];
  for (const c of cases) {
    const t = process.cpuUsage();
    valueProperty(c, ctx);
    const d = process.cpuUsage(t);
    cpu.push(d.user + d.system);
  }
  // Intrinsic cost: the least CPU time of 3 runs per subject (a GC pause or a descheduling lands on one run, not all).
  const minOf3 = cases.map((c, i) => {
    let best = cpu[i];
    for (let r = 0; r < 2; r++) {
      const t = process.cpuUsage();
      valueProperty(c, ctx);
      const d = process.cpuUsage(t);
      best = Math.min(best, d.user + d.system);
    }
    return best;
  });
  const stats = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const q = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))];
    return { median_us: q(0.5), p99_us: q(0.99), mean_us: Math.round((s.reduce((a, b) => a + b, 0) / s.length) * 10) / 10 };
  };
  return { ...stats(cpu), intrinsic_min_of_3: stats(minOf3) };
}

export async function run(opts: { dataDir?: string; n?: number } = {}): Promise<Record<string, unknown>> {
  const given = opts.dataDir ?? process.env.AVM_BENCH_DATA_DIR;
  if (given && !existsSync(given)) throw new Error(`AVM_BENCH_DATA_DIR=${given} does not exist (unset it to bench a generated default corpus)`);
  const c = await corpusDir(given);
  const store = openStore(c.dir);
  try {
    const t0 = performance.now();
    const served = buildValuationContext(store, { now: () => new Date('2026-11-02T12:00:00Z') });
    const contextMs = performance.now() - t0;
    const cases = strideSubjects(store, opts.n ?? 2000);
    // As served (Tier-2 / area-context / rent hooks of the sibling modules included), and the Tier-1 core alone.
    const full = await latency(cases, served);
    const tier1Only = await latency(cases, { ...served, hooks: {} });
    const result = {
      command: given ? 'AVM_BENCH_DATA_DIR=<corpus> npm run bench -- valuation' : 'npm run bench -- valuation', corpus: c.label, sales_rows: served.sales.length, context_build_ms: Math.round(contextMs),
      subjects: cases.length, loadavg_1m: Math.round(loadavg()[0] * 100) / 100, target_p99_us: TARGET_P99_US,
      // The target is judged on tinybench's wall-clock p99 (on a quiet machine). The per-call CPU figures beside it are
      // process.cpuUsage deltas: all threads (GC helpers included), and Linux splits user/system time by scheduler
      // ticks, so single-call deltas jump by a tick now and then: their tail is noise, their min-of-3 is the code's cost.
      judged_on: 'full.p99_us (tinybench wall clock)',
      meets_target: full.p99_us !== null && full.p99_us <= TARGET_P99_US,
      ratio_p99_to_target: full.p99_us === null ? null : Math.round((full.p99_us / TARGET_P99_US) * 100) / 100,
      ratio_cpu_p99_to_target: Math.round((full.cpu.p99_us / TARGET_P99_US) * 100) / 100,
      ratio_intrinsic_cpu_p99_to_target: Math.round((full.cpu.intrinsic_min_of_3.p99_us / TARGET_P99_US) * 100) / 100,
      full, tier1_core: tier1Only,
    };
    writeBenchResult('valuation', result);
    return result;
  } finally {
    await store.close();
    c.cleanup();
  }
}
