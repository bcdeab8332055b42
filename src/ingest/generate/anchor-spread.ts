// Within-area spread (generator 3.0.0). Real PIN areas differ threefold in how widely their sale prices spread around
// the area median (non-condo 2019 IQR 0.37 log in area 08 to 1.49 in area 21: cheap areas sell with far more spread).
// Each area gets one dispersion scale multiplying its parcels' unobserved quality (not the sale noise: that stays the
// buyer-and-seller scatter of a sale, so the oracle error stays honest where the stock alone spreads prices), set (golden-section
// search) so that the simulated sales of the area's parcels on the reference day come closest to the real IQR and the
// real share beyond 2x or 1/2 of the median together (squared relative misses summed): matching the IQR alone left
// the tails 10-25% too heavy where the characteristics and condition mix already spread prices.
import type { AreaDispersion } from '../../reference/types.js';
import { quantileType7Sorted } from '../../reference/stats.js';
import { condOn, type CalibCtx } from './anchor-levels.js';
import { noiseSigma } from './noise.js';
import { PT_CONDO } from './buildings.js';
import { levelLog, valueUsd, type SalesCtx } from './sales.js';

const SCALE_BOUNDS = [0.05, 4] as const; // a scale outside this would mean the rest of the surface is badly off
const SEARCH_STEPS = 24; // golden-section steps: the bracket shrinks to 0.618^24 of its width, about 1e-5
const LN2 = Math.log(2);
const GOLD = (Math.sqrt(5) - 1) / 2;

/** Squared relative misses of the IQR and the tail share of b + s·u against the real ones. */
function missAt(base: Float64Array, unit: Float64Array, s: number, scratch: Float64Array, want: AreaDispersion): number {
  for (let k = 0; k < base.length; k++) scratch[k] = base[k] + s * unit[k];
  const sorted = scratch.subarray(0, base.length).sort();
  const med = quantileType7Sorted(sorted, 0.5);
  let tail = 0;
  for (const v of sorted) if (Math.abs(v - med) > LN2) tail++;
  const iqr = quantileType7Sorted(sorted, 0.75) - quantileType7Sorted(sorted, 0.25);
  return (iqr / want.iqrLog - 1) ** 2 + (tail / sorted.length / want.tailShare - 1) ** 2;
}

/**
 * Scales `c.p.quality` per parcel by its PIN area's scale (1 where the area
 * has no real spread). `draws`: the unit noise draw per parcel. Returns the scale by area.
 */
export function calibrateAreaScales(c: CalibCtx, real: readonly AreaDispersion[], year: number, refDay: number, draws: Float64Array): Map<string, number> {
  const target = new Map(real.filter((d) => d.year === year).map((d) => [d.pinArea, d]));
  const members = new Map<string, number[]>();
  for (let i = 0; i < c.p.n; i++) {
    const t = c.tracts[c.p.tract[i]];
    if (t.county !== 'cook' || c.p.ptype[i] === PT_CONDO || !target.has(t.pinArea)) continue;
    const list = members.get(t.pinArea);
    if (list) list.push(i); else members.set(t.pinArea, [i]);
  }
  const scales = new Map<string, number>();
  for (const [area, list] of [...members].sort((a, b) => a[0].localeCompare(b[0]))) {
    // ln price ~ base (value without quality, plus the noise) + s × quality: the as-is discount and the noise tier are
    // taken at scale 1 (second-order in s)
    const base = new Float64Array(list.length), unit = new Float64Array(list.length), scratch = new Float64Array(list.length);
    list.forEach((i, k) => {
      const lnV = Math.log(valueUsd(c as SalesCtx, i, condOn(c, i, refDay), refDay));
      base[k] = lnV - c.p.quality[i] + noiseSigma(lnV - levelLog(c, i, refDay)) * draws[i];
      unit[k] = c.p.quality[i];
    });
    const want = target.get(area) as AreaDispersion;
    let lo: number = SCALE_BOUNDS[0], hi: number = SCALE_BOUNDS[1];
    let a = hi - GOLD * (hi - lo), b = lo + GOLD * (hi - lo);
    let fa = missAt(base, unit, a, scratch, want), fb = missAt(base, unit, b, scratch, want);
    for (let it = 0; it < SEARCH_STEPS; it++) {
      if (fa <= fb) { hi = b; b = a; fb = fa; a = hi - GOLD * (hi - lo); fa = missAt(base, unit, a, scratch, want); }
      else { lo = a; a = b; fa = fb; b = lo + GOLD * (hi - lo); fb = missAt(base, unit, b, scratch, want); }
    }
    scales.set(area, (lo + hi) / 2);
  }
  for (let i = 0; i < c.p.n; i++) {
    const t = c.tracts[c.p.tract[i]];
    if (t.county === 'cook') c.p.quality[i] *= scales.get(t.pinArea) ?? 1;
  }
  return scales;
}
