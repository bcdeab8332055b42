// The realism of the default corpus (generator 3.2.0, issue 14) on seeds 1, 2 and 3: per seed, the checks and summaries
// of truth/realism.json (neighborhood median gaps and volumes against the real cw353 aggregates, within-PIN-area IQR,
// p90-p10, tail share and KS against the real 2019 cmfproperty sales), each area's IQR floor (realism-floor.ts: the
// diagnostic adds an anchoring pass to the generate time), how much of the spread nearby comps can see beside the real
// naive-comps figure (comps-visibility.ts: the corpus is ingested for it), the generate time and the load average of the
// shared machine. Writes bench/results/realism.json. Per-neighborhood and per-area rows stay in each corpus' truth/.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { GENERATOR_VERSION, generateCorpus } from '../src/ingest/generate/generate.js';
import { ingestAll } from '../src/ingest/ingest.js';
import { salesColumnsFromArrow } from '../src/store/sales-columns.js';
import { openStore } from '../src/store/store.js';
import { compsVisibility, type CompsVisibility } from './comps-visibility.js';
import { writeBenchResult } from './results-file.js';

export type RealismBenchOptions = { seeds?: number[] };

async function oneSeed(seed: number): Promise<Record<string, unknown>> {
  const outDir = mkdtempSync(join(tmpdir(), `avm-bench-realism-${seed}-`));
  try {
    const load0 = loadavg()[0], t0 = performance.now();
    const out = await generateCorpus({ seed, scale: 'default', outDir, floorDiagnostic: true });
    const generateMs = Math.round(performance.now() - t0);
    const { checks, neighborhoods, pin_areas } = out.realism;
    return {
      seed, generate_wall_ms: generateMs, load_avg_1m: [Number(load0.toFixed(2)), Number(loadavg()[0].toFixed(2))],
      checks, neighborhoods: neighborhoods.summary, pin_areas: pin_areas.summary, comps_visibility: await visibilityOf(outDir),
      pin_area_rows: pin_areas.rows.map((r) => ({ pin_area: r.pin_area, real_n: r.real_n, syn_n: r.syn_n, real_iqr: r.real_iqr_log, syn_iqr: r.syn_iqr_log, real_p90_p10: r.real_p90_p10_log, syn_p90_p10: r.syn_p90_p10_log, real_tail: r.real_tail_share, syn_tail: r.syn_tail_share, ks: r.ks, ks_noise_95: r.ks_noise_95, dry_ks_before_shape: r.dry_ks_before_shape,
        real_iqr_rel_se: r.real_iqr_rel_se, real_tail_rel_se: r.real_tail_rel_se, real_nbhd_median_iqr: r.real_nbhd_median_iqr_log, real_lower_tail: r.real_lower_tail_share, distressed_kept: r.distressed_kept_share, floor_iqr: r.floor_iqr_log })),
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** Ingests the generated corpus and measures what nearby comps can see of its spread (comps-visibility.ts). */
async function visibilityOf(dataDir: string): Promise<CompsVisibility | null> {
  await ingestAll({ dataDir, rawDir: join(dataDir, 'raw') });
  const store = openStore(dataDir);
  try {
    const munis = new Map(store.getTracts().map((t) => [t.geoid, t.muni]));
    return await compsVisibility(dataDir, salesColumnsFromArrow(store.readSalesSnapshot().table), (g) => munis.get(g) ?? null);
  } finally {
    await store.close();
  }
}

export async function run(opts: RealismBenchOptions = {}): Promise<Record<string, unknown>> {
  const seeds = opts.seeds ?? [1, 2, 3];
  const runs: Array<Record<string, unknown>> = [];
  for (const seed of seeds) runs.push(await oneSeed(seed));
  const result = { command: 'npm run bench -- realism', generator_version: GENERATOR_VERSION, scale: 'default', seeds, runs };
  writeBenchResult('realism', result);
  return result;
}
