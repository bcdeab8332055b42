// Tier-1 ARV evidence from the renovated/new stratum through the kernel: comps, rejections, dispersion, IQR, ladder
// step, flip pairs, appraisal ceiling and the luxury test. The display decision itself is the ladder's (ladder.ts).
import type { AppraisalCeiling, FlipPairsSummary, Tier1Method } from '../../contracts/arv.js';
import type { Comp, CompRejection } from '../../contracts/comp.js';
import type { Kernel } from '../../kernel/kernel.js';
import { STRATUM } from '../../kernel/params.js';
import type { CompsResult, Subject as KernelSubject, TimeIndexSeries } from '../../kernel/types.js';
import { COMP_POLICY } from '../../registry/groups/comp-policy.js';
import { TIER1 } from '../../registry/groups/tier1.js';
import { REJECTION_REASONS } from '../../store/columns.js';
import { haversineFrom } from '../../reference/geo.js';
import { NON_MARKET_REASONS, roundMeasure, toComp, toRejection } from './comps-evidence.js';
import { detectFlipPairs, summarizeFlipPairs, type FlipPair, type ParcelSalesIndex } from './flip-pairs.js';
import type { SalesColumns } from '../../store/sales-columns.js';
import type { Tier1Evidence } from '../decide/ladder-evidence.js';
import { comparableBeds } from './kernel-columns.js';
import { compSetValueUsd } from './comp-value.js';
import { applyUnitsAdjustment, type CompUnitsAdj, type UnitsPremium } from './units-stratum.js';
import { findPriorSale } from './prior-sale.js';
import { maxRenoSale24mo } from './ceiling.js';

/**
 * `unitsPremium`: the 2/3/4-unit price adjustment (units-stratum.ts); absent or null → no adjustment. `timeIndex`: the
 * series the kernel indexes with, which also carries the subject's own earlier sale (prior-sale.ts); absent → no
 * prior-sale evidence.
 */
export type Tier1Deps = { kernel: Kernel; sales: SalesColumns; parcelSales: ParcelSalesIndex; unitsPremium?: UnitsPremium | null; timeIndex?: { series: readonly TimeIndexSeries[] } };

/** The subject as the kernel sees it, plus its unit count. No price: what a house is worth after repair does not depend on an offer. */
export type Tier1Subject = Omit<KernelSubject, 'stratumMask'> & { /** 1..4; null/absent when unknown (no unit-count adjustment). */ units?: number | null };

export type Tier1Result = {
  /** Ladder evidence without calibration (attached by the assembly from the segment's table row). */
  evidence: Omit<Tier1Evidence, 'calibration'>;
  comps: Comp[];
  rejected: CompRejection[];
  /** The same rejections as the kernel gives them, (snapshot row, reason) ascending by row: what the inputs hash reads. */
  rejectedRows: CompsResult['rejected'];
  flipPairs: FlipPair[];
  flipSummary: FlipPairsSummary;
  appraisalCeiling: AppraisalCeiling;
  /** Kernel rows of the accepted comps and of the whole pool (the luxury test's market pool), for tests. */
  compRows: number[];
  poolRows: number[];
  /** Unit-count factor of each accepted comp, in comps order (empty when no adjustment applied). */
  unitsAdjustments: CompUnitsAdj[];
};

export function tier1Method(countyCode: number): Tier1Method {
  return countyCode === 2 ? 'lake_gis_comps' : 'renovated_comps';
}

/**
 * luxury_thin_comps: the subject is larger than every sale of the candidate pool of its ladder step (accepted and
 * rejected market sales) AND fewer than min_comps_point comps qualified. Thin evidence at the top of the market is
 * not extrapolated. Size only: the caller's price is an offer, and an offer must not change what the house is worth.
 */
export function isLuxuryThin(s: Tier1Subject, sales: SalesColumns, poolRows: readonly number[], nComps: number): boolean {
  if (nComps >= COMP_POLICY.v.min_comps_point || poolRows.length === 0 || s.sqft === null) return false;
  let maxSqft = -Infinity;
  for (const r of poolRows) if (sales.sqft[r] > maxSqft) maxSqft = sales.sqft[r];
  return Number.isFinite(maxSqft) && s.sqft > maxSqft;
}

/** The subject as the kernel compares it: bedrooms per unit for a 2-4-unit subject (kernel-columns.ts). Every
 * Tier-1/as-is query of a Tier1Subject goes through here. */
export function kernelSubject(s: Tier1Subject): Omit<KernelSubject, 'stratumMask'> {
  const beds = s.beds === null ? null : comparableBeds(s.beds, s.ptype, s.units ?? 0);
  return { lat: s.lat, lon: s.lon, sqft: s.sqft, beds: beds === null || beds < 0 ? null : beds, ptype: s.ptype, county: s.county, asOfDay: s.asOfDay, excludeParcelIdx: s.excludeParcelIdx ?? null };
}

/** Ladder evidence from a kernel result (single or batch mode); `luxury` from isLuxuryThin over the pool. */
export function evidenceOf(res: CompsResult, s: Tier1Subject, luxury: boolean): Tier1Result['evidence'] {
  const n = res.accepted.length;
  const valued = n >= COMP_POLICY.v.min_comps_value && res.stats.median !== null;
  const step = res.step >= 1 && res.step <= 3 ? (res.step as 1 | 2 | 3) : null;
  const value = valued ? compSetValueUsd(res.accepted) : null;
  return {
    method: tier1Method(s.county),
    nComps: n,
    valueUsd: value,
    fsdPct: res.stats.fsd === null ? null : roundMeasure(res.stats.fsd * 100),
    ladderStep: valued ? step : null,
    // The comps' IQR, widened to hold the value: the distance-weighted median can lie outside the unweighted quartiles
    // (one near comp far from the rest), and a range served with a value never excludes it.
    compRangeUsd: value !== null && res.stats.q25 !== null && res.stats.q75 !== null ? { low: Math.min(res.stats.q25, value), high: Math.max(res.stats.q75, value) } : null,
    luxuryThinComps: luxury,
  };
}

/**
 * The ladder evidence from a kernel result (`raw`: queryComps, or a batch result when it has ≥ min_comps_point comps,
 * since only the luxury test reads the rejections and it cannot fire then). computeTier1 and bulk scoring share it.
 */
export function tier1EvidenceOf(deps: Tier1Deps, s: Tier1Subject, raw: CompsResult) {
  // Multi-unit subjects: comps of another unit count re-priced by the market-derived premium (units-stratum.ts).
  const { res, adjustments } = applyUnitsAdjustment(raw, deps.sales, deps.unitsPremium ?? null, s.units);
  const compRows = res.accepted.map((a) => a.row);
  const poolRows = compRows.slice();
  for (const r of res.rejected) if (!NON_MARKET_REASONS.has(r.reason)) poolRows.push(r.row);
  const luxury = isLuxuryThin(s, deps.sales, poolRows, res.accepted.length);
  const evidence = evidenceOf(res, s, luxury);
  const priorSale = findPriorSale(deps, s, evidence.valueUsd);
  return { res, adjustments, compRows, poolRows, evidence: { ...evidence, priorSale } };
}

/** Tier-1 evidence for one subject (the kernel's strict sale_day < asOfDay keeps the future out). */
export function computeTier1(deps: Tier1Deps, s: Tier1Subject, opts: { withCeiling?: boolean } = {}): Tier1Result {
  const raw = deps.kernel.queryComps({ ...kernelSubject(s), stratumMask: STRATUM.arv });
  const { res, adjustments, compRows, poolRows, evidence } = tier1EvidenceOf(deps, s, raw);
  const candidateRows = compRows.slice();
  for (const r of res.rejected) candidateRows.push(r.row);
  const flipPairs = detectFlipPairs(deps.sales, deps.parcelSales, candidateRows, s.asOfDay);
  const max = opts.withCeiling === false ? null : maxRenoSale24mo(deps, s);
  const distFrom = haversineFrom(s.lat, s.lon);
  return {
    evidence,
    comps: res.accepted.map((a) => toComp(deps.sales, a)),
    rejected: res.rejected.map((r) => toRejection(deps.sales, r, distFrom)),
    rejectedRows: res.rejected,
    flipPairs,
    flipSummary: summarizeFlipPairs(flipPairs),
    appraisalCeiling: { flag: false, max_reno_sale_24mo: max },
    compRows,
    poolRows,
    unitsAdjustments: adjustments,
  };
}

/** Appraisal-ceiling flag against a served number: set when it exceeds the max renovated sale of the last 24 months. */
export function ceilingFor(base: AppraisalCeiling, servedUsd: number | null): AppraisalCeiling {
  return { flag: servedUsd !== null && base.max_reno_sale_24mo !== null && servedUsd > base.max_reno_sale_24mo, max_reno_sale_24mo: base.max_reno_sale_24mo };
}
