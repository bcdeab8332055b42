// Anchoring the all-condition median (generator 3.0.0). A neighborhood's real median is of all its sales, of every
// condition and quality, after noise; the level series is that median. This shifts each anchored neighborhood's
// location term until the median simulated sale price of its parcels (each in its condition, with one noise draw from
// the `level-calibration` stream) on the reference day equals the series level: the sales themselves then land on it.
import { GENERATOR } from '../../registry/groups/generator.js';
import { yearOfDay } from '../../store/days.js';
import { medianOfPrefix } from '../../reference/stats.js';
import { noiseSigma, unitStudentT } from './noise.js';
import type { Rng } from './rng.js';
import { levelLog, valueUsd, type SalesCtx } from './sales.js';
import { COND_NEW, COND_RENOVATED } from './surface.js';

const ITERATIONS = 3;

/** One unit Student-t noise draw per parcel (from the `level-calibration` stream), shared by the calibration steps. */
export function calibrationDraws(n: number, rng: Rng): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = unitStudentT(rng);
  return out;
} // the as-is discount of repair costs is not log-additive: a few fixed-point steps close the gap

export type CalibCtx = Pick<SalesCtx, 'p' | 'tracts' | 'locLog' | 'timeOf'>;

/** Condition of parcel i on the reference day from its base condition (new buildings age into renovated). */
export function condOn(c: CalibCtx, i: number, day: number): number {
  const base = c.p.cond[i];
  if (base !== COND_NEW) return base;
  return yearOfDay(day) - c.p.yearBuilt[i] <= GENERATOR.v.new_condition_max_age_years ? COND_NEW : COND_RENOVATED;
}

/**
 * Adds to `c.locLog` of every tract whose neighborhood is anchored (`anchoredNbhd(tract)` gives its key) the offset
 * that puts the neighborhood's simulated median sale on its level at `refDay`. Returns the offsets by neighborhood.
 */
export function calibrateNbhdOffsets(c: CalibCtx, anchoredNbhd: (tractIdx: number) => string | null, refDay: number, draws: Float64Array): Map<string, number> {
  const keyOf = c.tracts.map((_, t) => anchoredNbhd(t));
  const members = new Map<string, number[]>();
  for (let i = 0; i < c.p.n; i++) {
    const k = keyOf[c.p.tract[i]];
    if (k === null) continue;
    const list = members.get(k);
    if (list) list.push(i); else members.set(k, [i]);
  }
  const offsets = new Map<string, number>();
  const scratch = new Float64Array(c.p.n);
  for (let it = 0; it < ITERATIONS; it++) {
    const delta = new Map<string, number>();
    for (const [k, list] of members) {
      list.forEach((i, j) => {
        const v = valueUsd(c as SalesCtx, i, condOn(c, i, refDay), refDay);
        const level = levelLog(c, i, refDay);
        scratch[j] = Math.log(v) + noiseSigma(Math.log(v) - level) * draws[i] - (level - c.locLog[c.p.tract[i]]);
      });
      // scratch holds ln price - series level; the offset moves by minus its median
      delta.set(k, -medianOfPrefix(scratch, list.length) + (offsets.get(k) ?? 0));
    }
    for (const [k, d] of delta) {
      const step = d - (offsets.get(k) ?? 0);
      offsets.set(k, d);
      keyOf.forEach((key, t) => { if (key === k) c.locLog[t] += step; });
    }
  }
  return offsets;
}
