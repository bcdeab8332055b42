// The known price surface behind every synthetic sale: per-tract location effect (spatially smooth, anchored to the
// real per-area price levels), a monthly time index (real 2015-2019 yearly levels, then a stated synthetic path),
// hedonic terms giving the renovated value (ARV), and the as-is value of a house that needs work: ARV less the
// buyer's price for the repair (a $/sqft cost) and, for distressed stock, the investor's spread. All pre-noise.
import { GENERATOR } from '../../registry/groups/generator.js';
import { AppError } from '../../errors/app-error.js';
import { dist2Mi } from './geometry.js';
import { lakeZips } from './lake.js';
import { areaRelativeLevels, countyMedianByYear, type GenReference } from './reference.js';
import type { Rng } from './rng.js';
import type { GenTract } from './tracts.js';
import { dayOfIso } from '../../store/days.js';

const G = GENERATOR.v;
/** Condition indices as in CONDITION_CODE: 0 distressed, 1 dated, 2 renovated, 3 new. */
export const COND_DISTRESSED = 0, COND_DATED = 1, COND_RENOVATED = 2, COND_NEW = 3;
export const CONDITION_NAMES = ['distressed', 'dated', 'renovated', 'new'] as const;
const BASE_YEAR = 2019; // last year with real price levels: the location anchors are 2019 levels

/** Gaussian-kernel average of anchor values at a point. */
function kernelAverage(lat: number, lon: number, anchors: ReadonlyArray<{ lat: number; lon: number; v: number }>, bwMi: number): number {
  let sw = 0, s = 0;
  for (const a of anchors) {
    const w = Math.exp(-dist2Mi(lat, lon, a.lat, a.lon) / (2 * bwMi * bwMi));
    sw += w;
    s += w * a.v;
  }
  if (!(sw > 1e-300)) throw new AppError('internal_error', 'location kernel found no anchor near a tract');
  return s / sw;
}

/**
 * Per-tract location term. A tract whose neighborhood has a real level series (`anchored`) gets only its smoothed
 * random deviation: the series carries the level. Any other tract gets the ln level of the reference house (ref sqft,
 * beds, age; single-family) on 2019-07-01 from the kernel surface, plus the deviation (its time index is the county's).
 */
export function tractLocationLogs(ref: GenReference, tracts: readonly GenTract[], rng: Rng, anchored: (t: GenTract) => boolean = () => false): Float64Array {
  const county2019 = countyMedianByYear(ref.priceLevels).get(BASE_YEAR);
  if (county2019 === undefined) throw new AppError('internal_error', `price levels lack the ${BASE_YEAR} county median`);
  const levels = areaRelativeLevels(ref.priceLevels);
  const cookAnchors = ref.pinAreas.filter((a) => levels.has(a.pinArea)).map((a) => ({ lat: a.lat, lon: a.lon, v: (levels.get(a.pinArea) as { relLog: number }).relLog }));
  const lakeAnchors = lakeZips(ref.zips).map((z) => ({ lat: z.lat, lon: z.lon, v: Math.log(z.relLevel) }));
  const base = tracts.map((t) =>
    anchored(t) ? 0 : t.county === 'cook'
      ? Math.log(county2019) + kernelAverage(t.lat, t.lon, cookAnchors, G.loc_kernel_bandwidth_mi)
      : Math.log(G.lake_median_2019_usd) + kernelAverage(t.lat, t.lon, lakeAnchors, G.loc_kernel_bandwidth_mi),
  );
  const raw = tracts.map(() => rng.normal() * G.tract_effect_sd);
  const out = new Float64Array(tracts.length);
  const bw = G.tract_effect_bandwidth_mi, cutoff2 = (3 * bw) ** 2;
  tracts.forEach((t, i) => {
    let sw = 0, s = 0;
    tracts.forEach((u, j) => {
      const d2 = dist2Mi(t.lat, t.lon, u.lat, u.lon);
      if (u.county !== t.county || d2 > cutoff2) return;
      const w = Math.exp(-d2 / (2 * bw * bw));
      sw += w;
      s += w * raw[j];
    });
    out[i] = base[i] + s / sw;
  });
  return out;
}

/** Monthly time index: ln level at July anchors, piecewise linear between them, plus seasonality. */
export class TimeIndex {
  private readonly anchorYears: number[] = [];
  private readonly anchorDays: number[] = [];
  private readonly anchorLogs: number[] = [];
  private readonly seasonRefDay = dayOfIso(`${BASE_YEAR}-06-15`);

  /** `anchors`: [year, ln level on July 1 of that year], in year order. */
  constructor(anchors: ReadonlyArray<readonly [number, number]>) {
    for (const [y, v] of anchors) this.push(y, v);
  }

  /** The county index relative to 2019-07-01: real county medians 2015-2019, then the synthetic yearly path. */
  static fromReference(ref: GenReference, lastYear: number): TimeIndex {
    const county = countyMedianByYear(ref.priceLevels);
    const m2019 = county.get(BASE_YEAR) as number;
    const anchors: Array<[number, number]> = [...county.keys()].filter((y) => y <= BASE_YEAR).sort((a, b) => a - b).map((y) => [y, Math.log((county.get(y) as number) / m2019)]);
    const growth = G.time_growth_log_2020_2026;
    let level = 0;
    for (let y = BASE_YEAR + 1; y <= Math.max(lastYear, BASE_YEAR + growth.length); y++) {
      level += growth[Math.min(y - BASE_YEAR - 1, growth.length - 1)];
      anchors.push([y, level]);
    }
    return new TimeIndex(anchors);
  }

  static fromAnchors(anchors: ReadonlyArray<readonly [number, number]>): TimeIndex {
    return new TimeIndex(anchors);
  }

  /** The same index with each July anchor moved by `shiftOf(year)` (ln points): a level change of whole years. */
  withShifts(shiftOf: (year: number) => number): TimeIndex {
    return new TimeIndex(this.anchorYears.map((y, k) => [y, this.anchorLogs[k] + shiftOf(y)] as const));
  }

  private push(year: number, logLevel: number): void {
    this.anchorYears.push(year);
    this.anchorDays.push(dayOfIso(`${year}-07-01`));
    this.anchorLogs.push(logLevel);
  }

  /** ln index at a day (days since 1970-01-01 UTC); flat before the first and after the last anchor. */
  logAt(day: number): number {
    const d = this.anchorDays, v = this.anchorLogs;
    let trend: number;
    if (day <= d[0]) trend = v[0];
    else if (day >= d[d.length - 1]) trend = v[v.length - 1];
    else {
      let k = 1;
      while (d[k] < day) k++;
      trend = v[k - 1] + ((v[k] - v[k - 1]) * (day - d[k - 1])) / (d[k] - d[k - 1]);
    }
    const season = G.seasonal_amplitude_log * Math.cos((2 * Math.PI * (day - this.seasonRefDay)) / 365.2425);
    return trend + season;
  }
}

/** Building facts the hedonic model reads. */
export type Hedonic = { sqft: number; beds: number; yearBuilt: number; units: number; isCondo: boolean; quality?: number };

/** ln(ARV) of a building at a tract on a day (pre-noise): its renovated value, or its new value while it is new. */
export function lnArv(locLog: number, time: TimeIndex, h: Hedonic, isNew: boolean, day: number, saleYear: number): number {
  const age = Math.min(Math.max(saleYear - h.yearBuilt, 0), G.age_cap_years);
  return (
    locLog +
    time.logAt(day) +
    G.beta_ln_sqft * Math.log(h.sqft / G.ref_sqft) +
    G.beta_beds * (h.beds - G.ref_beds) +
    G.beta_age_per_year * (age - G.ref_age_years) +
    G.unit_premium_log[Math.min(h.units, 4)] +
    (h.isCondo ? G.condo_premium_log : 0) +
    (isNew ? G.new_over_renovated_log : 0) +
    (h.quality ?? 0) +
    G.renovated_over_level_log
  );
}

const REPAIR_ANCHOR_DAY = dayOfIso(G.repair_cost_anchor_date);
const DAYS_PER_YEAR = 365.2425;

/**
 * USD cost on `day` of bringing a house in `cond` to renovated condition: $/sqft of its condition × living area ×
 * the parcel's scope multiplier, scaled from the anchor date at the repair-cost growth rate. 0 for renovated and new.
 */
export function repairCostUsd(cond: number, sqft: number, scope: number, day: number): number {
  if (cond !== COND_DISTRESSED && cond !== COND_DATED) return 0;
  const growth = Math.exp((G.repair_cost_growth_log_per_year * (day - REPAIR_ANCHOR_DAY)) / DAYS_PER_YEAR);
  return G.repair_psf_usd[cond] * sqft * scope * growth;
}

/**
 * As-is value from the ARV: ARV × (1 − buyer spread) − price factor × repair cost, never below the floor share of
 * ARV. Renovated and new houses (repair 0, no spread) are worth their ARV.
 */
export function asIsUsd(arvUsd: number, cond: number, repairUsd: number): number {
  if (cond !== COND_DISTRESSED && cond !== COND_DATED) return arvUsd;
  const bid = arvUsd * (1 - G.buyer_spread_frac[cond]) - G.repair_price_factor[cond] * repairUsd;
  return Math.max(bid, G.as_is_floor_frac * arvUsd);
}
