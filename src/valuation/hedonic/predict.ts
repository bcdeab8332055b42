// hedonic_v1 prediction: location effect (tract, shrunk, or unresolved), quarter effect carried forward past the fit,
// covariates with segment-mean imputation, and the hedonic_sigma_x_conformal interval.
import { HEDONIC } from '../../registry/groups/hedonic.js';
import { EARTH_RADIUS_MI, haversineMi } from '../../reference/geo.js';
import { CONDITION_CODE } from '../../store/columns.js';
import { COVARIATES, covariates, yearOfDay } from './design.js';
import { quarterOfDay } from '../../store/days.js';
import type { HedonicModel, HedonicPrediction, HedonicSegmentFit, HedonicSubject, LocationBasis } from './types.js';

export type SegmentLike = Pick<HedonicSegmentFit, 'coefs' | 'quarters' | 'lastQuarter' | 'tracts' | 'featureMeans' | 'sigma'>;

/**
 * The location effect: the tract's shrunk effect when the tract was fit ('tract' when its own weight n/(n+k) ≥
 * tract_basis_min_weight, else 'shrunk'); for a tract absent from the fit, the n-weighted raw mean of fitted tracts
 * within parent_radius_mi of the subject ('shrunk'); otherwise null (unresolved: no Tier 2).
 */
export function resolveLocation(fit: SegmentLike, geoid: string | null, lat: number, lon: number): { effect: number; basis: LocationBasis } | null {
  const own = geoid === null ? undefined : fit.tracts[geoid];
  if (own) return { effect: own.shrunk, basis: own.weight >= HEDONIC.v.tract_basis_min_weight ? 'tract' : 'shrunk' };
  const radiusMi = HEDONIC.v.parent_radius_mi;
  // Great-circle distance ≥ R·|Δlat|: a tract whose latitude alone puts it beyond the radius (with a margin far above
  // rounding) cannot pass the haversine test, so it is skipped before it; same tracts, same order, same sums.
  const maxDLatDeg = (radiusMi / EARTH_RADIUS_MI) * (180 / Math.PI) * (1 + 1e-9);
  let s = 0, w = 0;
  for (const t of tractList(fit.tracts)) {
    if (Math.abs(t.lat - lat) > maxDLatDeg) continue;
    if (haversineMi(lat, lon, t.lat, t.lon) > radiusMi) continue;
    s += t.raw * t.n; w += t.n;
  }
  return w > 0 ? { effect: s / w, basis: 'shrunk' } : null;
}

const tractLists = new WeakMap<SegmentLike['tracts'], Array<SegmentLike['tracts'][string]>>();

/** Object.values of a fit's tracts, listed once per fit (every unfitted-tract subject walks it). */
function tractList(tracts: SegmentLike['tracts']): Array<SegmentLike['tracts'][string]> {
  let list = tractLists.get(tracts);
  if (!list) tractLists.set(tracts, (list = Object.values(tracts)));
  return list;
}

/** The quarter whose effect prices the subject: its own quarter when fit, the last fitted one after it, the base before. */
export function quarterFor(fit: SegmentLike, day: number): string {
  const q = quarterOfDay(day);
  if (q in fit.quarters) return q;
  if (q > fit.lastQuarter) return fit.lastQuarter;
  return Object.keys(fit.quarters).sort()[0];
}

/** ln(value) from covariates in COVARIATES order (already complete). */
export function linearPart(fit: SegmentLike, cov: readonly number[]): number {
  let s = 0;
  for (let j = 0; j < cov.length; j++) s += fit.coefs[j] * cov[j];
  return s;
}

const CONDITION_BY_NAME: Record<HedonicSubject['condition'], number> = {
  distressed: CONDITION_CODE.distressed, dated: CONDITION_CODE.dated, renovated: CONDITION_CODE.renovated, new: CONDITION_CODE.new,
};

/** Covariates of a subject; unknown facts take the segment mean of that covariate (listed in `imputed`). */
function subjectCovariates(fit: SegmentLike, s: HedonicSubject): { cov: number[]; imputed: string[] } {
  const year = yearOfDay(s.asOfDay);
  const known = covariates(s.sqft ?? NaN, s.beds ?? -1, s.yearBuilt ?? -1, s.units ?? 1, CONDITION_BY_NAME[s.condition], year);
  if (known) return { cov: known, imputed: [] };
  const probe = covariates(s.sqft ?? 1000, s.beds ?? 0, s.yearBuilt ?? year, s.units ?? 1, CONDITION_BY_NAME[s.condition], year) as number[];
  const imputed: string[] = [];
  const cov = probe.slice();
  const fill = (name: string, idx: number[]): void => {
    imputed.push(name);
    for (const j of idx) cov[j] = fit.featureMeans[j];
  };
  if (!(s.sqft !== null && s.sqft > 0)) fill('sqft', [COVARIATES.indexOf('ln_sqft')]);
  if (s.beds === null || s.beds < 0) fill('beds', [COVARIATES.indexOf('beds')]);
  if (s.yearBuilt === null || s.yearBuilt <= 0) fill('year_built', [COVARIATES.indexOf('age'), COVARIATES.indexOf('age2')]);
  return { cov, imputed };
}

/** The interval: [v·e^(−zσ)·cLo, v·e^(zσ)·cHi], widened if needed to contain v (a biased segment can push qLo > 1). */
export function hedonicInterval(fit: Pick<HedonicSegmentFit, 'sigma' | 'calibration'>, valueUsd: number): { low: number; high: number } {
  const z = HEDONIC.v.interval_z;
  const cLo = fit.calibration?.cLo ?? 1, cHi = fit.calibration?.cHi ?? 1;
  const low = valueUsd * Math.exp(-z * fit.sigma) * cLo;
  const high = valueUsd * Math.exp(z * fit.sigma) * cHi;
  return { low: Math.min(low, valueUsd), high: Math.max(high, valueUsd) };
}

/** hedonic_v1 value of a subject, or null when its segment was not fit or its location effect is unresolved. */
export function predictHedonic(model: HedonicModel, subject: HedonicSubject): HedonicPrediction | null {
  const fit = model.segments[subject.segment];
  if (!fit) return null;
  const loc = resolveLocation(fit, subject.tractGeoid, subject.lat, subject.lon);
  if (!loc) return null;
  const { cov, imputed } = subjectCovariates(fit, subject);
  const quarter = quarterFor(fit, subject.asOfDay);
  const value = Math.exp(loc.effect + linearPart(fit, cov) + fit.quarters[quarter]);
  const band = hedonicInterval(fit, value);
  return { value, low: band.low, high: band.high, location_basis: loc.basis, quarter_used: quarter, segment: subject.segment, sigma: fit.sigma, imputed, version: model.version };
}
