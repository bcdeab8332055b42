// What the report page draws that the report rows do not hold, computed from the backtest's test half and the
// calibration table: reliability of confidence_p10 (the share within ±10% a sale was promised against the share its
// bin delivered), 80% coverage per ladder step across segments, and the signed log error's distribution per segment.
// Report only: nothing here reaches the calibration table, the registry or serving.
import { REPORT_FIGURES } from '../../registry/groups/report.js';
import { quantileType7 } from '../../reference/stats.js';
import { calibrationFor, evidenceClassOf, type CalibrationTable } from '../decide/segment.js';
import type { BacktestRecord } from './backtest.js';
import { ppe } from './metrics.js';
import { boundsFor } from './table.js';

/** Test sales whose promised confidence_p10 fell in [lo, hi); observed = share within ±10%, with its Wilson interval. */
export type ReliabilityBin = { lo: number; hi: number; n: number; meanPredicted: number; observed: number; ciLo: number; ciHi: number };
/** One calibration key (`sfh_city/step2`, `mf2_4_pooled`): the confidence_p10 it promises and what its test sales did. */
export type ReliabilityPoint = { key: string; predicted: number; n: number; observed: number };
export type Reliability = { bins: ReliabilityBin[]; points: ReliabilityPoint[]; nRated: number; nUnrated: number };
export type CoverageGroup = { group: string; n: number; covered: number; coverage80: number | null };
/** `counts[i]` = sales with edges[i] <= e < edges[i+1]; below/above: beyond the first/last edge. */
export type ErrorDistribution = { group: string; n: number; quantiles: Array<{ p: number; value: number }>; counts: number[]; below: number; above: number };
export type ReportFigures = {
  reliability: Reliability;
  /** Per evidence class (`step1`..`step3`, each `+prior` when the sale's own earlier sale moved it; `none`), pooled over the segments with a calibrated row of their own. */
  coverageByStep: CoverageGroup[];
  errors: { edges: number[]; groups: ErrorDistribution[] };
};

type Valued = BacktestRecord & { estimateUsd: number };
const valuedOf = (rs: readonly BacktestRecord[]): Valued[] => rs.filter((r): r is Valued => r.estimateUsd !== null);
/** Within the PPE10 band, by the one definition metrics.ppe uses. */
const hit = (r: Valued): boolean => ppe([r.estimateUsd], [r.priceUsd]) === 1;

/** Wilson score interval of k successes in n trials at normal quantile z (n > 0). */
export function wilsonInterval(k: number, n: number, z: number): { lo: number; hi: number } {
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { lo: Math.max(0, centre - half), hi: Math.min(1, centre + half) };
}

/** Each valued test sale under the confidence_p10 serving gives it (class row, segment row or declared fallback). */
export function reliabilityOf(table: CalibrationTable, test: readonly BacktestRecord[]): Reliability {
  const width = REPORT_FIGURES.v.reliability_bin_points;
  const nBins = Math.ceil(100 / width);
  const bins = Array.from({ length: nBins }, () => ({ n: 0, hits: 0, sumP: 0 }));
  const keys = new Map<string, { predicted: number; n: number; hits: number }>();
  let nUnrated = 0;
  for (const r of valuedOf(test)) {
    const cal = calibrationFor(table, r.segment, r);
    const p = cal?.confidenceP10 ?? null;
    if (!cal || p === null) {
      nUnrated++;
      continue;
    }
    const h = hit(r) ? 1 : 0;
    const b = bins[Math.min(nBins - 1, Math.max(0, Math.floor(p / width)))];
    b.n++;
    b.hits += h;
    b.sumP += p;
    const k = keys.get(cal.segment) ?? { predicted: p, n: 0, hits: 0 };
    k.n++;
    k.hits += h;
    keys.set(cal.segment, k);
  }
  const z = REPORT_FIGURES.v.reliability_ci_z;
  return {
    bins: bins.flatMap((b, i) => {
      if (b.n === 0) return [];
      const ci = wilsonInterval(b.hits, b.n, z);
      return [{ lo: i * width, hi: Math.min(100, (i + 1) * width), n: b.n, meanPredicted: b.sumP / b.n, observed: (100 * b.hits) / b.n, ciLo: 100 * ci.lo, ciHi: 100 * ci.hi }];
    }),
    points: [...keys].sort((a, b) => a[0].localeCompare(b[0])).map(([key, k]) => ({ key, predicted: k.predicted, n: k.n, observed: (100 * k.hits) / k.n })),
    nRated: bins.reduce((acc, b) => acc + b.n, 0),
    nUnrated,
  };
}

/** 80% coverage per evidence class across segments, each sale under its own row's interval (as the report rows). */
export function coverageByStep(table: CalibrationTable, test: readonly BacktestRecord[]): CoverageGroup[] {
  const acc = new Map<string, { n: number; covered: number }>();
  for (const r of valuedOf(test)) {
    const row = table.segments[r.segment];
    if (!row) continue;
    const b = boundsFor(row, r);
    const step = evidenceClassOf(r) ?? 'none';
    const g = acc.get(step) ?? { n: 0, covered: 0 };
    g.n++;
    if (r.priceUsd >= b.lo * r.estimateUsd && r.priceUsd <= b.hi * r.estimateUsd) g.covered++;
    acc.set(step, g);
  }
  return [...acc].sort((a, b) => a[0].localeCompare(b[0])).map(([group, g]) => ({ group, ...g, coverage80: g.n > 0 ? g.covered / g.n : null }));
}

/** Histogram edges -limit, -limit + step, ..., +limit (rounded to kill binary drift). */
export function errorEdges(limit = REPORT_FIGURES.v.log_error_limit, step = REPORT_FIGURES.v.log_error_step): number[] {
  const n = Math.round((2 * limit) / step);
  return Array.from({ length: n + 1 }, (_, i) => Number((-limit + i * step).toFixed(10)));
}

/** The signed log error ln(estimate / price) of a group's valued sales: quantiles and histogram counts on `edges`. */
export function errorDistribution(group: string, errors: readonly number[], edges: readonly number[]): ErrorDistribution {
  const counts = new Array<number>(edges.length - 1).fill(0);
  let below = 0;
  let above = 0;
  for (const e of errors) {
    if (e < edges[0]) below++;
    else if (e >= edges[edges.length - 1]) above++;
    else {
      let i = Math.floor((e - edges[0]) / (edges[1] - edges[0]));
      // Floating division can land one bin off at an edge: step to the bin whose [lo, hi) holds e.
      while (i > 0 && e < edges[i]) i--;
      while (i < counts.length - 1 && e >= edges[i + 1]) i++;
      counts[i]++;
    }
  }
  const quantiles = errors.length ? REPORT_FIGURES.v.error_quantiles.map((p) => ({ p, value: quantileType7(errors, p) })) : [];
  return { group, n: errors.length, quantiles, counts, below, above };
}

/** The figures of the test half: per segment (sorted) and overall. */
export function reportFigures(table: CalibrationTable, test: readonly BacktestRecord[]): ReportFigures {
  const valued = valuedOf(test);
  const edges = errorEdges();
  const logErr = (rs: readonly Valued[]): number[] => rs.map((r) => Math.log(r.estimateUsd / r.priceUsd));
  const segs = [...new Set(valued.map((r) => r.segment))].sort();
  return {
    reliability: reliabilityOf(table, test),
    coverageByStep: coverageByStep(table, test),
    errors: { edges, groups: [...segs.map((s) => errorDistribution(s, logErr(valued.filter((r) => r.segment === s)), edges)), errorDistribution('overall', logErr(valued), edges)] },
  };
}
