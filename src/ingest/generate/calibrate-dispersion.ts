// Within-area spread (generator 3.0.0). Real PIN areas differ threefold in how widely their sale prices spread around
// the area median (non-condo 2019 IQR 0.37 log in area 08 to 1.49 in area 21: cheap areas sell with far more spread).
// Each area gets one dispersion scale multiplying its parcels' unobserved quality and its sale noise, set by bisection
// so that the simulated sales of the area's parcels on the reference day have the real IQR around their median.
import type { AreaDispersion } from '../../reference/types.js';
import { quantileType7Sorted } from '../../reference/stats.js';
import { condOn, type CalibCtx } from './calibrate-levels.js';
import { noiseSigma } from './noise.js';
import { PT_CONDO } from './buildings.js';
import { levelLog, valueUsd, type SalesCtx } from './sales.js';

const SCALE_BOUNDS = [0.05, 4] as const; // a scale outside this would mean the rest of the surface is badly off
const BISECTIONS = 14;

/** IQR of b + s·u around nothing (IQR is shift-free). */
function iqrAt(base: Float64Array, unit: Float64Array, s: number, scratch: Float64Array): number {
  for (let k = 0; k < base.length; k++) scratch[k] = base[k] + s * unit[k];
  const sorted = scratch.subarray(0, base.length).sort();
  return quantileType7Sorted(sorted, 0.75) - quantileType7Sorted(sorted, 0.25);
}

/**
 * Sets `c.noiseScale` per Cook tract and scales `c.p.quality` per parcel by its PIN area's scale (1 where the area
 * has no real spread). `draws`: the unit noise draw per parcel. Returns the scale by area.
 */
export function calibrateAreaScales(c: CalibCtx, real: readonly AreaDispersion[], year: number, refDay: number, draws: Float64Array): Map<string, number> {
  const target = new Map(real.filter((d) => d.year === year).map((d) => [d.pinArea, d.iqrLog]));
  const members = new Map<string, number[]>();
  for (let i = 0; i < c.p.n; i++) {
    const t = c.tracts[c.p.tract[i]];
    if (t.county !== 'cook' || c.p.ptype[i] === PT_CONDO || !target.has(t.pinArea)) continue;
    const list = members.get(t.pinArea);
    if (list) list.push(i); else members.set(t.pinArea, [i]);
  }
  const scales = new Map<string, number>();
  for (const [area, list] of [...members].sort((a, b) => a[0].localeCompare(b[0]))) {
    // ln price ~ base (value without quality) + s × (quality + noise at scale 1): the as-is discount and the noise
    // tier are taken at scale 1 (second-order in s)
    const base = new Float64Array(list.length), unit = new Float64Array(list.length), scratch = new Float64Array(list.length);
    list.forEach((i, k) => {
      const lnV = Math.log(valueUsd(c as SalesCtx, i, condOn(c, i, refDay), refDay));
      base[k] = lnV - c.p.quality[i];
      unit[k] = c.p.quality[i] + noiseSigma(lnV - levelLog(c, i, refDay)) * draws[i];
    });
    let lo: number = SCALE_BOUNDS[0], hi: number = SCALE_BOUNDS[1];
    const want = target.get(area) as number;
    for (let it = 0; it < BISECTIONS; it++) {
      const mid = (lo + hi) / 2;
      if (iqrAt(base, unit, mid, scratch) < want) lo = mid; else hi = mid;
    }
    scales.set(area, (lo + hi) / 2);
  }
  c.tracts.forEach((t, k) => { c.noiseScale[k] = t.county === 'cook' ? scales.get(t.pinArea) ?? 1 : 1; });
  for (let i = 0; i < c.p.n; i++) c.p.quality[i] *= c.noiseScale[c.p.tract[i]];
  return scales;
}
