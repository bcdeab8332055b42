// The design of the condition hedonic: what a sale's price is expected to be from its facts, location and date alone.
// Dense covariates per sale plus one county-quarter cell (a one-hot block kept sparse); the tract level is a shrunken
// random effect handled by the fit (residuals.ts). Condition is deliberately absent: it is what the residual measures.
import { CONDITION_INFERENCE } from '../../registry/groups/condition.js';
import { INGEST } from '../../registry/groups/ingest.js';
import { COUNTY_CODE, PTYPE_CODE, TRACT_NONE } from '../../store/columns.js';
import { yearOfDay } from '../../store/days.js';
import type { ConditionInput } from './types.js';

/** Dense covariates, in this order (each centred or a 0/1 indicator; the county-quarter cells carry the level). */
export const DENSE_COVARIATES = [
  'ln_sqft', 'ln_sqft2', 'sqft_missing', 'beds', 'beds_missing', 'age', 'age2', 'age_missing', 'new_build',
  'units2', 'units3', 'units4', 'mf2_4', 'condo',
] as const;
export const N_DENSE = DENSE_COVARIATES.length;

/** Centre of ln sqft (≈ 1,400 sqft) and of beds, and the age scale: keeps the squares well conditioned. */
const LN_SQFT_CENTER = Math.log(1400);
const BEDS_CENTER = 3;
const AGE_SCALE_YEARS = 50;

/** True when the sale is a new build by the year-built rule (ingest.new_build_max_age_years). */
export function isNewBuild(x: ConditionInput, i: number): boolean {
  const yb = x.yearBuilt[i];
  return yb > 0 && yb >= yearOfDay(x.saleDay[i]) - INGEST.v.new_build_max_age_years;
}

/** Writes row i's dense covariates into `out` (length N_DENSE). */
export function denseRow(x: ConditionInput, i: number, out: Float64Array): void {
  const sqft = x.sqft[i];
  const ls = sqft > 0 ? Math.log(sqft) - LN_SQFT_CENTER : 0;
  const beds = x.beds[i];
  const yb = x.yearBuilt[i];
  const age = yb > 0 ? Math.max(0, yearOfDay(x.saleDay[i]) - yb) / AGE_SCALE_YEARS : 0;
  const units = x.units[i];
  out[0] = ls; out[1] = ls * ls; out[2] = sqft > 0 ? 0 : 1;
  out[3] = beds >= 0 ? Math.min(beds, 8) - BEDS_CENTER : 0; out[4] = beds >= 0 ? 0 : 1;
  out[5] = age; out[6] = age * age; out[7] = yb > 0 ? 0 : 1; out[8] = isNewBuild(x, i) ? 1 : 0;
  out[9] = units === 2 ? 1 : 0; out[10] = units === 3 ? 1 : 0; out[11] = units === 4 ? 1 : 0;
  out[12] = x.ptype[i] === PTYPE_CODE.mf2_4 ? 1 : 0; out[13] = x.ptype[i] === PTYPE_CODE.condo ? 1 : 0;
}

/** County-quarter cell of every row (the time and county level) and the number of cells. */
export function quarterCells(x: ConditionInput): { cell: Int32Array; nCells: number } {
  let minQ = Infinity;
  for (let i = 0; i < x.length; i++) minQ = Math.min(minQ, quarterOf(x.saleDay[i]));
  let maxQ = -Infinity;
  for (let i = 0; i < x.length; i++) maxQ = Math.max(maxQ, quarterOf(x.saleDay[i]));
  const span = x.length === 0 ? 1 : maxQ - minQ + 1;
  const cell = new Int32Array(x.length);
  for (let i = 0; i < x.length; i++) cell[i] = (x.county[i] === COUNTY_CODE.lake ? span : 0) + quarterOf(x.saleDay[i]) - minQ;
  return { cell, nCells: 2 * span };
}

function quarterOf(day: number): number {
  const d = new Date(day * 86_400_000);
  return d.getUTCFullYear() * 4 + Math.floor(d.getUTCMonth() / 3);
}

/**
 * Location of every row at two nested levels: its tract (or one group per county for rows outside every mapped tract)
 * and the area around it, a grid cell of condition_inference.area_cell_deg holding the tract's mean location, so
 * every tract lies in exactly one area and a thin tract borrows its area's level.
 */
export function locationGroups(x: ConditionInput): { group: Int32Array; nGroups: number; areaOfGroup: Int32Array; nAreas: number } {
  let maxTract = -1;
  for (let i = 0; i < x.length; i++) if (x.tractIdx[i] !== TRACT_NONE && x.tractIdx[i] > maxTract) maxTract = x.tractIdx[i];
  const nGroups = maxTract + 3;
  const group = new Int32Array(x.length);
  const sumLat = new Float64Array(nGroups), sumLon = new Float64Array(nGroups), n = new Float64Array(nGroups);
  for (let i = 0; i < x.length; i++) {
    const g = x.tractIdx[i] !== TRACT_NONE ? x.tractIdx[i] : maxTract + 1 + (x.county[i] === COUNTY_CODE.lake ? 1 : 0);
    group[i] = g;
    if (Number.isFinite(x.lat[i]) && Number.isFinite(x.lon[i])) { sumLat[g] += x.lat[i]; sumLon[g] += x.lon[i]; n[g]++; }
  }
  const cell = CONDITION_INFERENCE.v.area_cell_deg;
  const areaIds = new Map<string, number>();
  const areaOfGroup = new Int32Array(nGroups);
  for (let g = 0; g < nGroups; g++) {
    // The two catch-all groups (outside every tract) are their own areas: their rows are spread over a county.
    const key = g > maxTract || n[g] === 0 ? `g${g}` : `${Math.floor(sumLat[g] / n[g] / cell)},${Math.floor(sumLon[g] / n[g] / cell)}`;
    if (!areaIds.has(key)) areaIds.set(key, areaIds.size);
    areaOfGroup[g] = areaIds.get(key)!;
  }
  return { group, nGroups, areaOfGroup, nAreas: areaIds.size };
}

/** Cross-fitting fold of a parcel: a multiplicative hash, so folds do not follow PIN (and so location) order. */
export function foldOf(parcelIdx: number, folds: number): number {
  return (Math.imul(parcelIdx + 1, 0x9e3779b1) >>> 0) % folds;
}
