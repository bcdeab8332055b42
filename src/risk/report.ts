// The risk report: nine flags, each with a stated reason, a 0–100 score and a band. Pure: every input is evidence
// already gathered (inputs.ts). Crime and protected or proxy demographic fields are not in RiskInputs and never can
// be (test/risk asserts the key list). Risk is independent of opportunity: nothing here reads a strategy score.
import { RISK_FLAGS, type RiskBand, type RiskFlag, type RiskFlagCode, type RiskReport } from '../contracts/risk.js';
import { RISK } from '../registry/groups/risk.js';
import { TAX } from '../registry/groups/tax.js';

const R = RISK.v;

export type BasementType = 'full' | 'partial' | 'crawl' | 'slab' | 'none';

export type RiskInputs = {
  priceUsd: number | null;
  taxCurrentAnnualUsd: number | null;
  taxPredictiveAnnualUsd: number | null;
  /** tax.shock_flag of the tax module, when it computed one. */
  taxShockFlag: boolean | null;
  /** What the forward bill was projected on (tax.target_basis): the ARV, the caller's price or the area estimate. */
  taxTargetBasis: 'arv' | 'price' | 'area_estimate' | null;
  /** From characteristics (CCAO char_bsmt); null = no evidence either way. */
  basement: BasementType | null;
  /** Sales within distress_radius_mi over distress_window_days, and how many of them were distressed. */
  nearbySales: number | null;
  nearbyDistressedSales: number | null;
  /** Deed type of the subject parcel's latest recorded sale (store/columns.ts DEED_CODE name), null when none. */
  lastDeedType: string | null;
  /** Listing history event names in date order (empty when there is no listing). */
  listingEvents: readonly string[];
  listingUnits: number | null;
  /** Units the assessor records for the parcel (characteristics), null when unknown. */
  legalUnits: number | null;
  appraisalCeilingFlag: boolean | null;
  maxRenoSale24moUsd: number | null;
  yearBuilt: number | null;
  rentConfidence: 'low' | 'medium' | null;
};

/** Every input key, checked against RiskInputs both ways at compile time. */
export const RISK_INPUT_KEYS = [
  'priceUsd', 'taxCurrentAnnualUsd', 'taxPredictiveAnnualUsd', 'taxShockFlag', 'taxTargetBasis', 'basement', 'nearbySales', 'nearbyDistressedSales',
  'lastDeedType', 'listingEvents', 'listingUnits', 'legalUnits', 'appraisalCeilingFlag', 'maxRenoSale24moUsd', 'yearBuilt', 'rentConfidence',
] as const satisfies ReadonlyArray<keyof RiskInputs>;
type _AllKeysListed = Exclude<keyof RiskInputs, (typeof RISK_INPUT_KEYS)[number]> extends never ? true : never;
export const RISK_INPUT_KEYS_COMPLETE: _AllKeysListed = true;

export { RISK_FLAGS, type RiskBand, type RiskFlag, type RiskFlagCode, type RiskReport } from '../contracts/risk.js';

const WEIGHT: Record<RiskFlagCode, number> = {
  tax_shock: R.weight_tax_shock, tax_trap: R.weight_tax_trap, basement_flood: R.weight_basement_flood, distress_proximity: R.weight_distress_proximity,
  closing_friction: R.weight_closing_friction, legal_unit_mismatch: R.weight_legal_unit_mismatch, appraisal_ceiling: R.weight_appraisal_ceiling,
  vintage_stock: R.weight_vintage_stock, rent_model_uncertainty: R.weight_rent_model_uncertainty,
};

/** 0.5 at the threshold, 1 at saturation, linear between (works for falling scales: saturation below threshold). */
export function severityOf(x: number, threshold: number, saturation: number): number {
  const t = (x - threshold) / (saturation - threshold);
  return 0.5 + 0.5 * Math.min(1, Math.max(0, t));
}

type Draft = Omit<RiskFlag, 'code' | 'points'>;
const no = (reason: string): Draft => ({ flagged: false, severity: 0, reason, evidence: 'observed' });
const unknown = (reason: string): Draft => ({ flagged: false, severity: 0, reason: `no evidence: ${reason}`, evidence: 'no_evidence' });
const yes = (severity: number, reason: string): Draft => ({ flagged: true, severity, reason, evidence: 'observed' });
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const usd = (x: number): string => `$${Math.round(x).toLocaleString('en-US')}`;

function taxShock(i: RiskInputs): Draft {
  const cur = i.taxCurrentAnnualUsd;
  const fwd = i.taxPredictiveAnnualUsd;
  if (cur === null || fwd === null || !(cur > 0)) return i.taxShockFlag ? yes(0.5, 'the tax module flags a shock at the next reassessment') : unknown('current or forward tax bill unknown');
  const up = fwd / cur - 1;
  if (up < TAX.v.shock_threshold_frac && !i.taxShockFlag) return no(`forward bill ${usd(fwd)} is ${pct(up)} vs the current ${usd(cur)} (threshold ${pct(TAX.v.shock_threshold_frac)})`);
  return yes(severityOf(up, TAX.v.shock_threshold_frac, R.tax_shock_saturation_frac), `forward bill ${usd(fwd)} is ${pct(up)} above the current ${usd(cur)}: reassessment at ${BASIS_TEXT[i.taxTargetBasis ?? 'none']} raises it`);
}

/** What the forward bill was projected on, in words; never names a purchase price nobody gave. */
const BASIS_TEXT: Record<NonNullable<RiskInputs['taxTargetBasis']> | 'none', string> = {
  arv: 'the after-repair value',
  price: 'the purchase price',
  area_estimate: 'the area estimate',
  none: 'the next reassessment',
};

function taxTrap(i: RiskInputs): Draft {
  if (i.taxPredictiveAnnualUsd === null || i.priceUsd === null || !(i.priceUsd > 0)) return unknown('forward tax bill or price unknown');
  const rate = i.taxPredictiveAnnualUsd / i.priceUsd;
  if (rate < R.tax_trap_rate) return no(`forward bill is ${pct(rate)} of the price a year (threshold ${pct(R.tax_trap_rate)})`);
  return yes(severityOf(rate, R.tax_trap_rate, R.tax_trap_saturation_rate), `forward bill is ${pct(rate)} of the price every year`);
}

function basement(i: RiskInputs): Draft {
  if (i.basement === null) return unknown('no basement characteristic (char_bsmt) for this property');
  if (i.basement === 'full' || i.basement === 'partial') return yes(i.basement === 'full' ? 1 : 0.5, `${i.basement} basement recorded: below-grade space exposed to seepage and sewer backup`);
  return no(`basement recorded as ${i.basement}`);
}

function distress(i: RiskInputs): Draft {
  const n = i.nearbySales;
  const d = i.nearbyDistressedSales;
  const where = `within ${R.distress_radius_mi} mi over ${Math.round(R.distress_window_days / (365.25 / 12))} months`;
  if (n === null || d === null || n < R.distress_min_sales) return unknown(`${n ?? 0} sales ${where} (need ${R.distress_min_sales})`);
  const share = d / n;
  if (share < R.distress_share_threshold) return no(`${d} of ${n} sales ${where} were distressed (${pct(share)})`);
  return yes(severityOf(share, R.distress_share_threshold, R.distress_share_saturation), `${d} of ${n} sales ${where} were distressed (${pct(share)})`);
}

const FRICTION_DEEDS = new Set(['quitclaim', 'executor', 'beneficiary', 'other']);
const FELL_THROUGH = /back[_ ]on[_ ]market|contract[_ ]cancel|fell[_ ]through|relist/;

function closing(i: RiskInputs): Draft {
  const reasons: string[] = [];
  if (i.lastDeedType !== null && FRICTION_DEEDS.has(i.lastDeedType)) reasons.push(`last recorded deed is ${i.lastDeedType} (estate, trust or title work likely)`);
  const fell = i.listingEvents.filter((e) => FELL_THROUGH.test(e.toLowerCase()));
  if (fell.length > 0) reasons.push(`listing history shows ${fell.join(', ')}`);
  if (reasons.length > 0) return yes(reasons.length >= 2 ? 1 : 0.5, reasons.join('; '));
  if (i.lastDeedType === null && i.listingEvents.length === 0) return unknown('no deed or listing history for this property');
  return no(`last deed ${i.lastDeedType ?? 'unknown'}; no failed contract in the listing history`);
}

function legalUnits(i: RiskInputs): Draft {
  if (i.listingUnits === null || i.legalUnits === null) return unknown('listing units or assessor unit count unknown');
  const extra = i.listingUnits - i.legalUnits;
  if (extra <= 0) return no(`marketed as ${i.listingUnits} unit(s); the assessor records ${i.legalUnits}`);
  return yes(severityOf(extra, 1, 3), `marketed as ${i.listingUnits} units but the assessor records ${i.legalUnits}: ${extra} unit(s) may be unpermitted`);
}

function ceiling(i: RiskInputs): Draft {
  if (i.appraisalCeilingFlag === null) return unknown('no appraisal-ceiling check (no Tier-1 comp evidence)');
  const max = i.maxRenoSale24moUsd === null ? 'unknown' : usd(i.maxRenoSale24moUsd);
  return i.appraisalCeilingFlag ? yes(1, `ARV reaches the highest renovated sale nearby in 24 months (${max})`) : no(`ARV below the highest renovated sale nearby in 24 months (${max})`);
}

function vintage(i: RiskInputs): Draft {
  if (i.yearBuilt === null) return unknown('year built unknown');
  if (i.yearBuilt >= R.vintage_year_threshold) return no(`built ${i.yearBuilt}, not before ${R.vintage_year_threshold}`);
  return yes(severityOf(i.yearBuilt, R.vintage_year_threshold, R.vintage_year_saturation), `built ${i.yearBuilt}, before ${R.vintage_year_threshold}: lead paint, wiring and plumbing of that age`);
}

function rentModel(i: RiskInputs): Draft {
  if (i.rentConfidence === null) return unknown('rent confidence unavailable');
  return i.rentConfidence === 'low' ? yes(1, 'rent band wider than ±24% (rent_confidence low)') : no(`rent_confidence ${i.rentConfidence}`);
}

const RULES: Record<RiskFlagCode, (i: RiskInputs) => Draft> = {
  tax_shock: taxShock, tax_trap: taxTrap, basement_flood: basement, distress_proximity: distress, closing_friction: closing,
  legal_unit_mismatch: legalUnits, appraisal_ceiling: ceiling, vintage_stock: vintage, rent_model_uncertainty: rentModel,
};

export function bandOf(score: number): RiskBand {
  const [moderate, high, severe] = R.band_cutoffs;
  return score >= severe ? 'severe' : score >= high ? 'high' : score >= moderate ? 'moderate' : 'low';
}

/** Score = Σ severity × weight over the nine flags (weights sum to 100), clamped to [0, 100], one decimal. */
export function riskReport(inputs: RiskInputs): RiskReport {
  const flags = RISK_FLAGS.map((code) => {
    const d = RULES[code](inputs);
    return { code, ...d, points: Math.round(d.severity * WEIGHT[code] * 10) / 10 };
  });
  const score = Math.min(100, Math.max(0, Math.round(flags.reduce((s, f) => s + f.severity * WEIGHT[f.code], 0) * 10) / 10));
  return {
    score,
    band: bandOf(score),
    flags,
    excluded_inputs: 'Crime and protected or proxy demographic fields are never inputs. Risk is independent of opportunity.',
    registry_version: `${RISK.name}@${RISK.version}`,
  };
}
