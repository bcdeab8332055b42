// A plain-code pre-check of ladder evidence, at least as strict as LadderEvidenceSchema (ladder-evidence.ts): the
// ladder skips the zod parse (a large share of a bulk valuation) for evidence it passes and parses everything else,
// so malformed evidence still fails with zod's issues. The test pins its field lists to the schemas' shapes.
import { PRIOR_SALE_GROUPS, TIER1_METHODS } from '../../contracts/arv.js';
import { COUNTIES } from '../../contracts/subject.js';
import { COMP_POLICY } from '../../registry/groups/comp-policy.js';
import { DISPLAY_SETTINGS, type LadderEvidence } from './ladder-evidence.js';

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const pos = (v: unknown): boolean => num(v) && v > 0;
const nonNeg = (v: unknown): boolean => num(v) && v >= 0;
const pct = (v: unknown): boolean => num(v) && v >= 0 && v <= 100;
const bool = (v: unknown): boolean => typeof v === 'boolean';
const strOrNull = (v: unknown): boolean => v === null || typeof v === 'string';
const orNull = (f: (v: unknown) => boolean) => (v: unknown): boolean => v === null || f(v);
const oneOf = (xs: readonly string[]) => (v: unknown): boolean => typeof v === 'string' && xs.includes(v);

/** Field checks per record (keys = the schema's keys; the test compares them to the zod shapes). */
export const GATE_CHECKS = { county: oneOf(COUNTIES), outsideMappedTracts: bool, tractNotIngested: bool, condoModelUnavailable: bool };

export const CALIBRATION_CHECKS = {
  segment: (v: unknown) => typeof v === 'string' && v.length >= 1, version: strOrNull, q80Lo: pos, q80Hi: pos,
  confidenceP10: orNull(pct), display: oneOf(DISPLAY_SETTINGS), fallbackFor: (v: unknown) => v == null || (typeof v === 'string' && v.length >= 1),
};

const usdRange = (v: unknown): boolean => isRec(v) && nonNeg(v.low) && nonNeg(v.high) && (v.low as number) <= (v.high as number);
const calibration = (v: unknown): boolean => isRec(v) && fields(v, CALIBRATION_CHECKS) && (v.q80Lo as number) <= (v.q80Hi as number);

const int = (v: unknown): boolean => Number.isInteger(v);

export const PRIOR_SALE_CHECKS = {
  row: (v: unknown) => int(v) && (v as number) >= 0, saleDay: int, priceUsd: pos, group: oneOf(PRIOR_SALE_GROUPS), indexFactor: pos, carriedUsd: pos, logGap: num,
};

export const TIER1_CHECKS = {
  method: oneOf(TIER1_METHODS),
  nComps: (v: unknown) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= COMP_POLICY.v.max_comps,
  valueUsd: orNull(pos), fsdPct: orNull(nonNeg), ladderStep: (v: unknown) => v === null || v === 1 || v === 2 || v === 3,
  compRangeUsd: orNull(usdRange), luxuryThinComps: bool, calibration: orNull(calibration),
  modelValueUsd: (v: unknown) => v === undefined || v === null || pos(v),
  priorSale: (v: unknown) => v === undefined || v === null || (isRec(v) && fields(v, PRIOR_SALE_CHECKS)),
  compsValueUsd: (v: unknown) => v === undefined || v === null || pos(v),
};

export const HEDONIC_CHECKS = {
  segment: (v: unknown) => typeof v === 'string' && v.length >= 1, version: strOrNull, displayEligible: bool, locationResolved: bool,
  valueUsd: pos, lowUsd: nonNeg, highUsd: nonNeg, sigmaPct: orNull(nonNeg), confidenceP10: orNull(pct), locationBasis: strOrNull, quarterUsed: strOrNull,
};

export const AREA_CHECKS = {
  valueUsd: pos, lowUsd: orNull(nonNeg), highUsd: orNull(nonNeg), confidence: orNull(pct), premium: orNull(isRec), basis: strOrNull,
};

function fields(v: Rec, checks: Record<string, (x: unknown) => boolean>): boolean {
  for (const k in checks) if (!checks[k](v[k])) return false;
  return true;
}

const tier1 = (v: unknown): boolean =>
  isRec(v) && fields(v, TIER1_CHECKS) && (v.valueUsd === null || (v.compRangeUsd !== null && v.fsdPct !== null));
const hedonic = (v: unknown): boolean =>
  isRec(v) && fields(v, HEDONIC_CHECKS) && (v.lowUsd as number) <= (v.valueUsd as number) && (v.valueUsd as number) <= (v.highUsd as number);
const area = (v: unknown): boolean => isRec(v) && fields(v, AREA_CHECKS);

/** True only for evidence LadderEvidenceSchema accepts unchanged in every field the ladder reads. */
export function evidenceLooksValid(e: unknown): e is LadderEvidence {
  return isRec(e) && isRec(e.subject) && fields(e.subject, GATE_CHECKS) && (e.tier1 === null || tier1(e.tier1)) && (e.tier2 === null || hedonic(e.tier2)) && (e.areaContext === null || area(e.areaContext));
}
