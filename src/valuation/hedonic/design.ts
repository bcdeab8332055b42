// The hedonic design: segment keys, which sales enter a segment, and each row's covariates
// (ln sqft, beds, age, age², units, condition dummies vs distressed). Quarter dummies are added by the fit.
import { CONDITION_CODE, COUNTY_CODE, PTYPE_CODE } from '../../store/columns.js';
import { HEDONIC } from '../../registry/groups/hedonic.js';
import type { SalesColumns } from '../../store/sales-columns.js';
import type { TractMeta } from './types.js';
import { hedonicSegmentOf, segmentKey } from '../decide/segment.js';

/** The calibration segment key `<ptype>_<city|suburb>` and the hedonic segment (one definition: decide/segment.ts). */
export { hedonicSegmentOf, segmentKey };

export const COVARIATES = ['ln_sqft', 'beds', 'age', 'age2', 'units', 'cond_dated', 'cond_renovated', 'cond_new'] as const;
export type CovariateName = (typeof COVARIATES)[number];
export const CONDITION_NAMES = ['distressed', 'dated', 'renovated', 'new'] as const;

/** Hedonic segment of a snapshot row (Lake rows: `<ptype>_lake`), or null when the row cannot enter any (condo,
 * another county, no tract). */
export function rowSegment(c: SalesColumns, i: number, metaByGeoid: ReadonlyMap<string, TractMeta>): string | null {
  if (c.county[i] !== COUNTY_CODE.cook && c.county[i] !== COUNTY_CODE.lake) return null;
  const pt = c.ptype[i] === PTYPE_CODE.sfh ? 'sfh' : c.ptype[i] === PTYPE_CODE.mf2_4 ? 'mf2_4' : null;
  const geoid = c.tracts[c.tractIdx[i]];
  if (pt === null || geoid === undefined) return null;
  const meta = metaByGeoid.get(geoid);
  return meta ? hedonicSegmentOf(pt, c.county[i] === COUNTY_CODE.lake ? 'lake' : 'cook', meta.muni) : null;
}

/** Covariates of one sale or subject, or null when a fact the fit needs is unknown (NaN/negative). */
export function covariates(sqft: number, beds: number, yearBuilt: number, units: number, condition: number, saleYear: number): number[] | null {
  if (!(sqft > 0) || beds < 0 || yearBuilt <= 0 || condition > CONDITION_CODE.new) return null;
  const age = Math.max(0, saleYear - yearBuilt) / HEDONIC.v.age_scale_years;
  const u = units > 0 ? units : 1;
  return [Math.log(sqft), beds, age, age * age, u, +(condition === CONDITION_CODE.dated), +(condition === CONDITION_CODE.renovated), +(condition === CONDITION_CODE.new)];
}

export function yearOfDay(day: number): number {
  return new Date(day * 86_400_000).getUTCFullYear();
}
