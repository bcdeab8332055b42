// Distressed stock held to the real lower tail (generator 3.2.0). A distressed house sells at 20-60% of its ARV, so
// nearly every distressed sale lands below half its area median. Measured on seed 1 of 3.1.0 (dry pass, after the
// shape map): in the uniform suburbs the distressed sales alone put 5.5-7.4% of an area's sales below half its median
// (areas 02, 03, 06, 07, 27) where the real 2019 sales have 1-4% there in all, and the quality map cannot pull them in
// (it keeps ranks; a distressed house's price is its repair discount, not its quality). So, per PIN area with a real
// 2019 row and enough dry rows, each non-flip distressed building stays distressed with probability k, else becomes
// dated or renovated in the base proportion of the two, with k in [0, 1] chosen so the distressed rows' share below half the median plus the other rows' share equals
// the real one. k is never above 1: where the real lower tail is wide (the South Side), the quality spread already makes
// it and the base mix (buildings.ts) stands. Flip buys stay distressed (the resale legs are what condition inference
// reads). The dry rows follow the new conditions, so the shape map and the level anchoring see the sales to be written.
import { GENERATOR } from '../../registry/groups/generator.js';
import type { AreaDispersion } from '../../reference/types.js';
import { quantileType7Sorted } from '../../reference/stats.js';
import { yearOfDay } from '../../store/days.js';
import { PT_CONDO } from './buildings.js';
import { movedLnPrice, type DrySales } from './dry-sales.js';
import type { Rng } from './rng.js';
import type { SalesCtx } from './sales.js';
import { COND_DATED, COND_DISTRESSED, COND_RENOVATED } from './surface.js';

const LN2 = Math.log(2);

/** Per PIN area: the real lower tail (share of 2019 sales below half the median), the dry one and the distressed keep-share k. */
export type DistressFit = Map<string, { realLow: number; dryLow: number; keep: number }>;

/** Real share of centred ln prices below −ln 2, read off the 99 percentiles (linear between them; half a percent below the first). */
export function realLowerTail(centeredLogQuantiles: readonly number[]): number {
  const q = centeredLogQuantiles, x = -LN2;
  if (x < q[0]) return 0.005;
  for (let k = 1; k < q.length; k++) if (x < q[k]) return (k + (x - q[k - 1]) / (q[k] - q[k - 1])) / 100;
  return 0.995;
}

type AreaTally = { n: number; otherLow: number; distressedLow: number };

/** Centred (area-year median) dry prices of the rows the realism report compares, tallied below −ln 2 by whether their parcel may convert. */
function tally(c: SalesCtx, dry: DrySales, areaOf: (i: number) => string | null, convertible: Uint8Array, years: readonly number[]): Map<string, AreaTally> {
  const byAreaYear = new Map<string, { ln: number[]; conv: boolean[] }>();
  for (const r of dry.rows) {
    const a = areaOf(r.parcel), y = yearOfDay(r.day);
    if (a === null || !r.arms || !years.includes(y)) continue;
    const key = `${a}|${y}`, g = byAreaYear.get(key) ?? { ln: [], conv: [] };
    g.ln.push(movedLnPrice(c, r)); g.conv.push(convertible[r.parcel] === 1 && r.priceCond === COND_DISTRESSED);
    byAreaYear.set(key, g);
  }
  const out = new Map<string, AreaTally>();
  for (const [key, g] of byAreaYear) {
    const med = quantileType7Sorted(Float64Array.from(g.ln).sort(), 0.5), area = key.split('|')[0];
    const t = out.get(area) ?? { n: 0, otherLow: 0, distressedLow: 0 };
    g.ln.forEach((v, j) => { t.n++; if (v - med < -LN2) { if (g.conv[j]) t.distressedLow++; else t.otherLow++; } });
    out.set(area, t);
  }
  return out;
}

/**
 * Turns part of each Cook PIN area's non-flip, non-condo distressed buildings dated or renovated (as above), drawing one uniform
 * per distressed building in parcel order from `rng`, and updates the dry rows' conditions. Returns the fit per area.
 */
export function calibrateDistressedShare(c: SalesCtx, dry: DrySales, real: readonly AreaDispersion[], year: number, years: readonly number[], rng: Rng): DistressFit {
  const target = new Map(real.filter((d) => d.year === year).map((d) => [d.pinArea, realLowerTail(d.centeredLogQuantiles)]));
  const areaOf = (i: number): string | null => {
    const t = c.tracts[c.p.tract[i]];
    return t.county === 'cook' && c.p.ptype[i] !== PT_CONDO && target.has(t.pinArea) ? t.pinArea : null;
  };
  const convertible = new Uint8Array(c.p.n);
  for (let i = 0; i < c.p.n; i++) if (c.p.cond[i] === COND_DISTRESSED && c.p.flip[i] === 0 && areaOf(i) !== null) convertible[i] = 1;
  const fit: DistressFit = new Map();
  for (const [area, t] of [...tally(c, dry, areaOf, convertible, years)].sort((x, y) => x[0].localeCompare(y[0]))) {
    if (t.n < GENERATOR.v.distress_fit_min_rows) continue; // too few sales: the lower tail is a handful of rows
    const realLow = target.get(area) as number, other = t.otherLow / t.n, distressed = t.distressedLow / t.n;
    const keep = distressed > 0 ? Math.min(1, Math.max(0, (realLow - other) / distressed)) : 1;
    fit.set(area, { realLow, dryLow: other + distressed, keep });
  }
  const converted = new Uint8Array(c.p.n);
  const [, dated, renovated] = GENERATOR.v.condition_mix, datedShare = dated / (dated + renovated);
  for (let i = 0; i < c.p.n; i++) {
    if (convertible[i] === 0) continue;
    const u = rng.next(); // drawn for every candidate, so one area's k does not move another's draws
    const f = fit.get(areaOf(i) as string);
    if (f === undefined || u < f.keep) continue;
    // the rest of the same uniform picks dated or renovated in their base proportion (buildings.ts), so the area's other
    // buildings keep the base mix (all-dated was tried first: same realism figures within one area, and the condition
    // inference's seed-2 collapse, README, was there either way: recall of renovated 0.49 all-dated, 0.47 with this)
    c.p.cond[i] = (u - f.keep) / (1 - f.keep) < datedShare ? COND_DATED : COND_RENOVATED;
    converted[i] = 1;
  }
  for (const r of dry.rows) if (converted[r.parcel] === 1 && r.priceCond === COND_DISTRESSED) r.priceCond = c.p.cond[r.parcel];
  return fit;
}
