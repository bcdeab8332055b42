// Property-tax estimate (valuation.tax): Cook `cook_equalized` from the reference rates/factors/levels, Lake
// `lake_median_rate` from a documented county median, triad reassessment, tax shock and the appeal scenario.
import { AppError } from '../../errors/app-error.js';
import { equalizationFactorFor, levelOfAssessment, loadCookCountyLevel, normalizeMunicipality, taxRateFor } from '../../reference/load.js';
import { TAX } from '../../registry/groups/tax.js';

export type County = 'cook' | 'lake' | 'unknown';
export type Triad = 'city' | 'north' | 'south_west';
export type TargetBasis = 'arv' | 'price' | 'area_estimate';

/** The three reference lookups, each for the latest published year <= the year asked (null when none). */
export type TaxReference = {
  rate(municipality: string, year: number): { rate: number; yearUsed: number } | null;
  equalizer(year: number): { factor: number; yearUsed: number } | null;
  loa(classCode: string, year: number): { loa: number; yearUsed: number } | null;
  /** Cook county-wide average composite rate, used only when the municipality has no published rate. */
  countyRate?(year: number): { rate: number; yearUsed: number } | null;
};

/** The real reference data (data/reference via src/reference/load.ts): municipal average composite rate, final equalizer. */
export const REFERENCE_TAX_SOURCE: TaxReference = {
  rate(municipality, year) {
    const r = taxRateFor(municipality, year);
    return r && r.currentRateAvg !== null ? { rate: r.currentRateAvg, yearUsed: r.yearUsed } : null;
  },
  equalizer(year) {
    const e = equalizationFactorFor(year);
    return e ? { factor: e.factor, yearUsed: e.yearUsed } : null;
  },
  loa: (classCode, year) => levelOfAssessment(classCode, year),
  countyRate(year) {
    const rows = loadCookCountyLevel().filter((r) => r.year <= year && r.currentRateAvg !== null);
    const last = rows.length > 0 ? rows.reduce((a, b) => (b.year > a.year ? b : a)) : null;
    return last ? { rate: last.currentRateAvg as number, yearUsed: last.year } : null;
  },
};

export type TaxInput = {
  county: County;
  /** Cook municipality name as in the reference rates (e.g. `Chicago`); null when unknown. */
  municipality: string | null;
  /** Cook triad; Chicago is always `city`. Null leaves next_reassess_year null for suburban Cook. */
  triad: Triad | null;
  classCode: string | null;
  /** Asking or purchase price; the current bill is computed on it (else on the as-is value). */
  priceUsd: number | null;
  asIsValueUsd: number | null;
  /** Point ARV and whether the display ladder made it a point; a range-only ARV never reaches the tax. */
  arvUsd: number | null;
  arvPointActionable: boolean;
  /** Area-context estimate (nbhd_premium), used as the forward value only when there is neither ARV nor price. */
  areaEstimateUsd: number | null;
  ownerOccupied: boolean;
  /** ISO date of the valuation; fixes the tax year and the next reassessment year. */
  asOf: string;
  appealReductionPct?: number;
};

/** The spec's Tax object, exactly. */
export type Tax = {
  current_annual: number | null;
  predictive_annual: number | null;
  target_basis: TargetBasis;
  county: County;
  method: 'cook_equalized' | 'lake_median_rate' | 'none';
  shock_flag: boolean;
  next_reassess_year: number | null;
  exemptions_assumed: number | null;
  confidence: 'medium' | 'low' | null;
  appeal: { est_av_reduction_pct: number; est_annual_savings: number; locked_years: number; note: string } | null;
};

/** How the bill was derived, for the artifact/evidence (not part of the Tax object). */
export type TaxBasis = {
  taxYear: number | null;
  levelOfAssessment: number | null;
  equalizationFactor: number | null;
  /** Composite rate as a fraction of equalized assessed value. */
  compositeRate: number | null;
  exemptionEavUsd: number;
  note: string;
};

/**
 * The forward value the next reassessment will see: the point ARV when the ladder allows it, else the price (a
 * recorded sale is what the assessor sees), else the area estimate. Nothing here reads a range midpoint.
 */
export function forwardValue(input: Pick<TaxInput, 'arvUsd' | 'arvPointActionable' | 'priceUsd' | 'areaEstimateUsd'>): { valueUsd: number | null; basis: TargetBasis } {
  if (input.arvPointActionable && input.arvUsd !== null) return { valueUsd: input.arvUsd, basis: 'arv' };
  if (input.priceUsd !== null) return { valueUsd: input.priceUsd, basis: 'price' };
  if (input.areaEstimateUsd !== null) return { valueUsd: input.areaEstimateUsd, basis: 'area_estimate' };
  return { valueUsd: null, basis: 'price' };
}

type BillParams = { loa: number; eq: number; rate: number; exemptionEavUsd: number };

/** bill = max(0, value × loa × eq − exemption EAV) × rate. */
export function billFor(valueUsd: number, p: BillParams, avReductionFrac = 0): number {
  const avUsd = valueUsd * p.loa * (1 - avReductionFrac);
  return Math.max(0, avUsd * p.eq - p.exemptionEavUsd) * p.rate;
}

function asOfYear(asOf: string): number {
  const y = Number.parseInt(asOf.slice(0, 4), 10);
  if (!Number.isFinite(y)) throw new AppError('validation_failed', `as_of is not an ISO date: ${asOf}`);
  return y;
}

export function nextReassessYear(county: County, triad: Triad | null, year: number): number | null {
  if (county === 'lake') return nextCycleYear(year, TAX.v.lake_quadrennial_base_year, TAX.v.lake_cycle_years);
  if (county !== 'cook' || triad === null) return null;
  const idx = { city: 0, north: 1, south_west: 2 }[triad];
  return nextCycleYear(year, TAX.v.cook_triad_base_years[idx], TAX.v.reassess_cycle_years);
}

/** Smallest baseYear + k·cycle (k any integer) that is ≥ year: the current year counts when it is a reassessment year. */
export function nextCycleYear(year: number, baseYear: number, cycleYears: number): number {
  return baseYear + Math.ceil((year - baseYear) / cycleYears) * cycleYears;
}

type CookLookup = { params: BillParams; rate: { rate: number; yearUsed: number }; eq: { factor: number; yearUsed: number }; loa: { loa: number; yearUsed: number }; countyFallback: boolean };

/** The Cook bill parameters (no text): null when the municipality is unknown or a rate, equalizer or level is missing. */
function cookLookup(ref: TaxReference, input: Pick<TaxInput, 'municipality' | 'classCode' | 'ownerOccupied'>, year: number): CookLookup | null {
  const exemptionEavUsd = input.ownerOccupied ? TAX.v.cook_homeowner_exemption_eav_usd : 0;
  if (!input.municipality) return null;
  // Bills are paid a year in arrears: the latest tax year is the as-of year − 1, or the latest one published.
  const taxYear = year - 1;
  const muniRate = ref.rate(input.municipality, taxYear);
  const countyRate = muniRate ? null : ref.countyRate?.(taxYear) ?? null;
  const rate = muniRate ?? countyRate;
  const eq = ref.equalizer(taxYear);
  const loa = ref.loa(input.classCode ?? TAX.v.cook_residential_class_code, taxYear) ?? ref.loa(TAX.v.cook_residential_class_code, taxYear);
  if (!rate || !eq || !loa) return null;
  return { params: { loa: loa.loa, eq: eq.factor, rate: rate.rate, exemptionEavUsd }, rate, eq, loa, countyFallback: countyRate !== null };
}

function findCookParams(ref: TaxReference, input: TaxInput, year: number): { params: BillParams | null; taxYear: number | null; note: string; countyFallback?: boolean } {
  if (!input.municipality) return { params: null, taxYear: null, note: 'municipality unknown: no composite rate' };
  const l = cookLookup(ref, input, year);
  if (!l) return { params: null, taxYear: null, note: `no published rate, equalizer or level of assessment for ${input.municipality} at or before ${year - 1}` };
  const { rate, eq, loa } = l;
  return {
    params: l.params,
    taxYear: rate.yearUsed,
    note: `Cook ${input.municipality}: ${l.countyFallback ? `no published municipal rate, county-wide average composite rate ${rate.rate}` : `municipal average composite rate ${rate.rate}`} (tax year ${rate.yearUsed}), final equalizer ${eq.factor} (${eq.yearUsed}), level of assessment ${loa.loa} (${loa.yearUsed})`,
    countyFallback: l.countyFallback,
  };
}

/**
 * tax.predictive_annual alone (what underwriting reads), by the same parameters and forward value as estimateTax
 * without its text and appeal scenario: bulk scoring of every parcel.
 */
export function predictiveTaxAnnual(input: TaxInput, ref: TaxReference = REFERENCE_TAX_SOURCE): number | null {
  const year = asOfYear(input.asOf);
  const p = input.county === 'cook' ? (cookLookup(ref, input, year)?.params ?? null) : input.county === 'lake' ? lakeParams(input) : null;
  const fwd = forwardValue(input);
  return p && fwd.valueUsd !== null ? billFor(fwd.valueUsd, p) : null;
}

/** A TaxReference answering each distinct lookup once (the reference files do not change within a process). */
export function memoTaxReference(ref: TaxReference): TaxReference {
  const memo = new Map<string, unknown>();
  const once = <T>(key: string, f: () => T): T => (memo.has(key) ? (memo.get(key) as T) : (memo.set(key, f()), memo.get(key) as T));
  return {
    rate: (m, y) => once(`r|${m}|${y}`, () => ref.rate(m, y)),
    equalizer: (y) => once(`e|${y}`, () => ref.equalizer(y)),
    loa: (c, y) => once(`l|${c}|${y}`, () => ref.loa(c, y)),
    countyRate: ref.countyRate ? (y) => once(`c|${y}`, () => ref.countyRate!(y)) : undefined,
  };
}

function lakeParams(input: TaxInput): BillParams {
  const loa = TAX.v.lake_assessment_level;
  // The median effective rate is a share of market value; on EAV (one-third of value, county multiplier 1) it is 3×.
  return { loa, eq: 1, rate: TAX.v.lake_median_effective_rate / loa, exemptionEavUsd: input.ownerOccupied ? TAX.v.lake_homestead_exemption_eav_usd : 0 };
}

const LAKE_NOTE = 'Lake: one-third assessment and a county median effective rate (no parcel or municipal rate data); confidence low';

export function estimateTax(input: TaxInput, ref: TaxReference = REFERENCE_TAX_SOURCE): { tax: Tax; basis: TaxBasis } {
  const year = asOfYear(input.asOf);
  const triad = input.municipality && normalizeMunicipality(input.municipality) === 'chicago' ? 'city' : input.triad;
  const found = input.county === 'cook' ? findCookParams(ref, input, year)
    : input.county === 'lake' ? { params: lakeParams(input), taxYear: null, note: LAKE_NOTE }
    : { params: null, taxYear: null, note: 'county unknown: no tax method' };
  const p = found.params;
  const currentValue = input.priceUsd ?? input.asIsValueUsd;
  const fwd = forwardValue(input);
  const current = p && currentValue !== null ? billFor(currentValue, p) : null;
  const predictive = p && fwd.valueUsd !== null ? billFor(fwd.valueUsd, p) : null;
  const nextYear = nextReassessYear(input.county, triad, year);
  const tax: Tax = {
    current_annual: current,
    predictive_annual: predictive,
    target_basis: fwd.basis,
    county: input.county,
    method: input.county === 'cook' ? 'cook_equalized' : input.county === 'lake' ? 'lake_median_rate' : 'none',
    shock_flag: current !== null && predictive !== null && predictive > current * (1 + TAX.v.shock_threshold_frac),
    next_reassess_year: nextYear,
    exemptions_assumed: p ? p.exemptionEavUsd : null,
    confidence: p === null ? null : input.county === 'lake' || ('countyFallback' in found && found.countyFallback) ? 'low' : 'medium',
    appeal: p && predictive !== null && fwd.valueUsd !== null ? appealScenario(input, p, fwd.valueUsd, predictive, year, nextYear) : null,
  };
  const basis: TaxBasis = { taxYear: found.taxYear, levelOfAssessment: p?.loa ?? null, equalizationFactor: p?.eq ?? null, compositeRate: p?.rate ?? null, exemptionEavUsd: p?.exemptionEavUsd ?? 0, note: found.note };
  return { tax, basis };
}

function appealScenario(input: TaxInput, p: BillParams, forwardUsd: number, predictive: number, year: number, nextYear: number | null): NonNullable<Tax['appeal']> {
  const pct = input.appealReductionPct ?? TAX.v.appeal_av_reduction_pct;
  const cycle = input.county === 'lake' ? TAX.v.lake_cycle_years : TAX.v.reassess_cycle_years;
  // A reduction holds until the next reassessment; in a reassessment year it covers the whole new cycle.
  const locked = nextYear === null ? 1 : nextYear === year ? cycle : nextYear - year;
  const savings = predictive - billFor(forwardUsd, p, pct / 100);
  const lakeNote = input.county === 'lake' ? ` ${LAKE_NOTE}.` : '';
  return {
    est_av_reduction_pct: pct,
    est_annual_savings: savings,
    locked_years: locked,
    note: `Board-of-Review scenario: ${pct}% assessed-value reduction on the forward value, held ${locked} year(s) until the next reassessment; not a prediction of an appeal outcome.${lakeNote}`,
  };
}
