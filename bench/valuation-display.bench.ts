// The valuation display path in-process: ladder decision, artifact (with inputs hash) and displayed valuation
// (with the invariant check), per subject, for a point and a suppressed outcome. Excludes the kernel's comp search.
import { Bench } from 'tinybench';
import type { Comp } from '../src/contracts/comp.js';
import type { Subject } from '../src/contracts/subject.js';
import { buildArtifact, deriveDisplayedValuation } from '../src/valuation/artifact.js';
import { decideValuationDisplay } from '../src/valuation/decide/ladder.js';
import type { LadderEvidence } from '../src/valuation/decide/ladder-evidence.js';
import { writeBenchResult } from './results-file.js';

const SUBJECT: Subject = { key: 'pin:16011140230000', lat: 41.89, lon: -87.72, tract_geoid: '17031230100', county: 'cook', price: 300_000, price_source: 'caller', units: 2, units_source: 'caller', beds: 4, sqft: 2000, year_built: 1925, property_type: 'mf2_4', condition: null, condition_source: 'unknown' };
const COMPS: Comp[] = Array.from({ length: 8 }, (_, i) => ({ pin: `1601114023${1000 + i}`, price: 400_000 + 10_000 * i, indexed_price: (400_000 + 10_000 * i) * 1.02, index_factor: 1.02, gla_adj: null, sale_year: 2026, sale_date: '2026-03-01', dist_mi: 0.2, lat: 41.89 + 0.001 * i, lon: -87.72, sqft: 2000, beds: 4, condition: 'renovated', condition_source: 'hedonic', condition_prob: 0.7, similarity: 0.8 }));
const GATES = { county: 'cook' as const, outsideMappedTracts: false, tractNotIngested: false, condoModelUnavailable: false };
const POINT: LadderEvidence = { subject: GATES, tier1: { method: 'renovated_comps', nComps: 8, valueUsd: 452_345, fsdPct: 10, ladderStep: 1, compRangeUsd: { low: 430_000, high: 470_000 }, luxuryThinComps: false, calibration: { segment: 'mf2_4_city', version: 'c1', q80Lo: 0.9, q80Hi: 1.12, confidenceP10: 58, display: 'point' } }, tier2: null, areaContext: null };
const SUPPRESSED: LadderEvidence = { ...POINT, tier1: null };
const PARTS = {
  rent: { market: 1800, reno: 2100, s8: 2000, method: 'safmr_anchored', confidence: 60 },
  rehab: { estimate: 60_000, scope: 'moderate' as const, psf_base: 30, multipliers: { violations: 1, age: 1, mechanicals: 1 } },
};

function valueOnce(ev: LadderEvidence): unknown {
  const decision = decideValuationDisplay(ev);
  const n = decision.artifactArv?.n_comps ?? 0;
  const artifact = buildArtifact({
    modelVersion: 'bench', asOf: '2026-11-21', subject: SUBJECT, compsUsed: COMPS.slice(0, n), compsRejected: [], fallbackChain: [{ source: 'corpus', served: n > 0, note: '' }],
    warnings: [], vintages: null, asIs: null, decision,
    hashParts: { tract: { geoid: SUBJECT.tract_geoid }, assumptions: {}, evidence: { comps: COMPS.map((c) => c.pin), rejected: {}, timeIndex: null, flipPairs: [] }, provenance: 'corpus', assetSlices: null, versions: { model: 'bench', registry: 'r' } },
  });
  const basis = decision.pointActionable ? ('arv' as const) : ('price' as const);
  return deriveDisplayedValuation(artifact, decision, { ...PARTS, tax: { current_annual: 6000, predictive_annual: 7500, target_basis: basis, county: 'cook', method: 'cook_equalized' } });
}

export async function run(): Promise<Record<string, unknown>> {
  const bench = new Bench({ time: 1500, warmup: true });
  bench.add('point', () => { valueOnce(POINT); });
  bench.add('suppressed', () => { valueOnce(SUPPRESSED); });
  await bench.run();
  const tasks = Object.fromEntries(bench.tasks.map((t) => {
    const r = t.result as unknown as { latency: { p50: number; p99: number; samplesCount?: number } };
    return [t.name, { median_us: r.latency.p50 * 1000, p99_us: r.latency.p99 * 1000 }];
  }));
  const file = writeBenchResult('valuation-display', { unit: 'microseconds per valuation (display path only, no kernel)', tasks });
  return { file, tasks };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${JSON.stringify(await run(), null, 2)}\n`);
}
