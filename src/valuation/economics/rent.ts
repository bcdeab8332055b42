// Rent (valuation.rent), `safmr_anchored`: HUD SAFMR (a GROSS rent at the 40th percentile) by bedroom mix, less a
// utility allowance → contract rent; as-is (condition-adjusted) and stabilized post-reno (sqft elasticity, capped at
// 1.5 × as-is) are computed side by side and never blended; context is carried, never used. Money is not rounded here.
import type { Rent, RentEstimate, UnitMixItem } from '../../contracts/rent.js';
import type { SafmrTable } from '../../ingest/loaders/safmr.js';
import { HEDONIC } from '../../registry/groups/hedonic.js';
import { RENT } from '../../registry/groups/rent.js';
import { haversineMi } from '../../reference/geo.js';
import type { ZipCentroid } from '../../reference/types.js';
import { erf } from '../decide/ladder-confidence.js';
import { VALUATION_DISPLAY } from '../../registry/groups/valuation.js';
import { bedroomMix, type MixedUnit } from './rent-mix.js';

export type RentCondition = 'distressed' | 'dated' | 'renovated' | 'new';
export type RentSubject = { zip: string | null; lat: number | null; lon: number | null; units: number | null; beds: number | null; sqft: number | null; condition: RentCondition | null };
/** Caller overrides of registry conventions (a building's own utility schedule, a condition factor table). */
export type RentOptions = { zipCentroids?: readonly ZipCentroid[]; utilityAllowanceUsd?: readonly number[]; conditionFactor?: readonly number[] };

const CONDITION_INDEX: Record<RentCondition, number> = { distressed: 0, dated: 1, renovated: 2, new: 3 };
export const clampRentBand = (b: number): number => Math.min(RENT.v.interval_pct_range[1], Math.max(RENT.v.interval_pct_range[0], b));

/** Confidence from a band read as an 80% half-width: sd = band / z80, conf = 100·P(|err| ≤ 10%) = 100·erf(0.1/(sd√2)). */
export function rentConfidence(bandPct: number): number {
  const sd = bandPct / HEDONIC.v.interval_z;
  return Math.round(100 * erf(VALUATION_DISPLAY.v.ppe_band_frac / (sd * Math.SQRT2)));
}

function estimate(value: number, rawBand: number, evidence: Record<string, unknown>[]): RentEstimate {
  const band = clampRentBand(rawBand);
  return { value, low: value * (1 - band), high: value * (1 + band), confidence: rentConfidence(band), interval_pct: band, evidence };
}

/** The SAFMR row for the subject: its ZIP, else the nearest ZIP centroid that has a row (flagged). */
function safmrRow(s: RentSubject, table: SafmrTable | null, opts: RentOptions): { zip: string; rents: readonly number[]; nearest: boolean } | null {
  if (!table) return null;
  if (s.zip && table.rows[s.zip]) return { zip: s.zip, rents: table.rows[s.zip].rent_by_beds_usd, nearest: false };
  if (s.lat === null || s.lon === null || !opts.zipCentroids) return null;
  let best: ZipCentroid | null = null, bestMi = Infinity;
  for (const z of opts.zipCentroids) {
    if (!table.rows[z.zip]) continue;
    const d = haversineMi(s.lat, s.lon, z.lat, z.lon);
    if (d < bestMi) { bestMi = d; best = z; }
  }
  return best ? { zip: best.zip, rents: table.rows[best.zip].rent_by_beds_usd, nearest: true } : null;
}

function unavailable(units: number, warnings: string[]): Rent {
  return {
    market: null, reno: null, s8: null, method: 'safmr_anchored', mu: 0, confidence: null,
    unit_mix: [{ beds: null, count: units, safmr: null, est: null }], warnings: [...warnings, 'safmr_unavailable'],
    as_is_contract: null, stabilized_post_reno: null, context: { acs_gross: null, safmr_2br_equiv: null, zori_zip: null }, rent_confidence: null,
  };
}

/** Contract rent of one unit: gross SAFMR − utility allowance (never below 0). */
function contractUsd(rents: readonly number[], ua: readonly number[], beds: number): number {
  return Math.max(0, rents[beds] - ua[beds]);
}

/** Post-reno sqft factor: (sqft per unit / reference size)^elasticity held inside sqft_band; 1 when sqft unknown. */
function sqftFactor(sqft: number | null, units: number, beds: number): number {
  if (sqft === null || !(sqft > 0)) return 1;
  const f = Math.pow(sqft / units / RENT.v.ref_sqft_per_unit[beds], RENT.v.sqft_elasticity);
  return Math.min(RENT.v.sqft_band[1], Math.max(RENT.v.sqft_band[0], f));
}

/** The rent numbers of a subject with a SAFMR row: as-is contract, stabilized post-reno and Section 8 (gross), per month. */
export type RentFigures = {
  row: { zip: string; rents: readonly number[]; nearest: boolean };
  units: number; mix: readonly MixedUnit[]; mixWarnings: readonly string[]; ua: readonly number[]; condFactor: number; renoFactor: number;
  asIsUsd: number; renoRawUsd: number; capUsd: number; stabilizedUsd: number; s8Usd: number;
};

const unitsOf = (s: RentSubject): number => (s.units !== null && s.units >= 1 ? Math.round(s.units) : 1);

/**
 * The numbers behind estimateRent (null without a SAFMR row): the one computation of the rent money, used by
 * estimateRent and by bulk scoring, which reads only these numbers (not the evidence records).
 */
export function rentFigures(s: RentSubject, table: SafmrTable | null, opts: RentOptions = {}): RentFigures | null {
  const row = safmrRow(s, table, opts);
  if (!row) return null;
  const units = unitsOf(s);
  const ua = opts.utilityAllowanceUsd ?? RENT.v.utility_allowance_usd;
  const { mix, warnings: mixWarnings } = bedroomMix(units, s.beds);
  const factors = opts.conditionFactor ?? RENT.v.condition_factor;
  const condFactor = factors[CONDITION_INDEX[s.condition ?? 'dated']];
  const renoFactor = factors[CONDITION_INDEX.renovated];
  const asIsUsd = sum(mix, (m) => m.count * contractUsd(row.rents, ua, m.beds) * condFactor);
  const renoRawUsd = sum(mix, (m) => m.count * contractUsd(row.rents, ua, m.beds) * renoFactor * sqftFactor(s.sqft, units, m.beds));
  const capUsd = RENT.v.uplift_cap_mult * asIsUsd;
  const stabilizedUsd = Math.max(asIsUsd, Math.min(capUsd, renoRawUsd));
  return { row, units, mix, mixWarnings, ua, condFactor, renoFactor, asIsUsd, renoRawUsd, capUsd, stabilizedUsd, s8Usd: sum(mix, (m) => m.count * row.rents[m.beds]) };
}

/** The rent object of the spec for a subject, from the SAFMR table stored at ingest (reference `safmr`). */
export function estimateRent(s: RentSubject, table: SafmrTable | null, opts: RentOptions = {}): Rent {
  const warnings: string[] = [];
  if (!(s.units !== null && s.units >= 1)) warnings.push('units_unknown_assumed_1');
  const f = rentFigures(s, table, opts);
  if (!f) return unavailable(unitsOf(s), warnings);
  const { row, ua, mix, condFactor, renoFactor, asIsUsd, renoRawUsd, capUsd, stabilizedUsd } = f;
  warnings.push(...f.mixWarnings, 'utility_allowance_convention');
  if (row.nearest) warnings.push('safmr_nearest_zip');
  const condKnown = s.condition !== null;
  if (!condKnown) warnings.push('condition_unknown_priced_as_dated');
  const unitMix: UnitMixItem[] = mix.map((m) => ({ beds: m.beds, count: m.count, safmr: row.rents[m.beds], est: contractUsd(row.rents, ua, m.beds) * condFactor }));
  const asIsBand = RENT.v.base_band_pct + (s.beds === null ? RENT.v.band_add_beds_unknown : 0) + (condKnown ? 0 : RENT.v.band_add_condition_unknown) + (row.nearest ? RENT.v.band_add_nearest_zip : 0);
  const renoBand = asIsBand + RENT.v.band_add_post_reno + (s.sqft === null ? RENT.v.band_add_sqft_unknown : 0);
  const base = baseEvidence(row, ua, mix);
  const asIs = estimate(asIsUsd, asIsBand, [...base, { kind: 'condition', condition: s.condition ?? 'dated', factor: condFactor }, { kind: 'band', raw_pct: asIsBand }]);
  const stabilized = estimate(stabilizedUsd, renoBand, [...base, { kind: 'post_reno', factor: renoFactor, sqft: s.sqft, uncapped_usd: renoRawUsd, cap_usd: capUsd, capped: renoRawUsd > capUsd }, { kind: 'band', raw_pct: renoBand }]);
  return {
    market: asIs.value, reno: stabilized.value, s8: f.s8Usd, method: 'safmr_anchored', mu: 0,
    confidence: asIs.confidence, unit_mix: unitMix, warnings, as_is_contract: asIs, stabilized_post_reno: stabilized,
    context: { acs_gross: null, safmr_2br_equiv: row.rents[2], zori_zip: null },
    rent_confidence: Math.max(asIsBand, renoBand) > RENT.v.low_confidence_band ? 'low' : 'medium',
  };
}

function sum<T>(xs: readonly T[], f: (x: T) => number): number {
  return xs.reduce((s, x) => s + f(x), 0);
}

function baseEvidence(row: { zip: string; rents: readonly number[]; nearest: boolean }, ua: readonly number[], mix: readonly MixedUnit[]): Record<string, unknown>[] {
  return [
    { kind: 'safmr', source: 'HUD Small Area Fair Market Rents', zip: row.zip, nearest_zip: row.nearest, percentile: RENT.v.target_percentile, gross: true, by_beds_usd: mix.map((m) => ({ beds: m.beds, count: m.count, gross_usd: row.rents[m.beds] })) },
    { kind: 'utility_allowance', note: 'SAFMR is a gross rent (rent + tenant-paid utilities); contract rent = SAFMR − utility allowance', by_beds_usd: mix.map((m) => ({ beds: m.beds, usd: ua[m.beds] })), source: 'registry rent.utility_allowance_usd (CHA schedule magnitude, convention)' },
  ];
}
