// The narrowest each PIN area can be (generator 3.2.0 diagnostic, `generateCorpus({ floorDiagnostic: true })`, run by
// the realism bench): every Cook parcel's unobserved quality set to its neighborhood's mean, so houses in a
// neighborhood differ only by what the house model gives them (size, age, units, condition, sale noise), the realised
// neighborhood-year medians anchored on the real ones again, and the IQR of the area's centred sales measured as the
// report measures it. Where that floor is more than 10% above the real IQR, no quality map can meet the IQR target
// while the neighborhood medians hold. The quality and the levels are restored afterwards: the written corpus does
// not depend on whether the diagnostic ran.
import { quantileType7Sorted } from '../../reference/stats.js';
import { yearOfDay } from '../../store/days.js';
import { anchorRealisedMedians } from './anchor-realised.js';
import type { Surface } from './anchoring.js';
import { PT_CONDO } from './buildings.js';
import { movedLnPrice, type DrySales } from './dry-sales.js';
import type { GenReference } from './reference.js';
import type { SalesCtx } from './sales.js';

/** IQR (ln) per Cook PIN area of the dry pass's arms-length non-condo sales of `years`, each centred on its area-year median. */
function areaIqrs(c: SalesCtx, dry: DrySales, years: readonly number[]): Map<string, number> {
  const byAreaYear = new Map<string, number[]>();
  for (const r of dry.rows) {
    const t = c.tracts[c.p.tract[r.parcel]], y = yearOfDay(r.day);
    if (t.county !== 'cook' || !r.arms || c.p.ptype[r.parcel] === PT_CONDO || !years.includes(y)) continue;
    const key = `${t.pinArea}|${y}`, l = byAreaYear.get(key) ?? [];
    l.push(movedLnPrice(c, r));
    byAreaYear.set(key, l);
  }
  const centred = new Map<string, number[]>();
  for (const [key, l] of byAreaYear) {
    const med = quantileType7Sorted(Float64Array.from(l).sort(), 0.5), area = key.split('|')[0], out = centred.get(area) ?? [];
    for (const v of l) out.push(v - med);
    centred.set(area, out);
  }
  return new Map([...centred].map(([a, l]) => {
    const s = Float64Array.from(l).sort();
    return [a, quantileType7Sorted(s, 0.75) - quantileType7Sorted(s, 0.25)];
  }));
}

/** Per Cook PIN area: the IQR floor described above, on the dry pass after the fits. Leaves `c` as it found it. */
export function areaIqrFloors(c: SalesCtx & { timeOf: Surface['timeOf'] }, dry: DrySales, ref: GenReference, surface: Surface, years: readonly number[]): Map<string, number> {
  const quality = Float64Array.from(c.p.quality), levels = c.timeOf.slice();
  const sum = new Map<string, [number, number]>();
  const keyOf = (i: number) => c.tracts[c.p.tract[i]].townNbhd;
  const cook = (i: number) => c.tracts[c.p.tract[i]].county === 'cook';
  for (let i = 0; i < c.p.n; i++) if (cook(i)) { const s = sum.get(keyOf(i)) ?? [0, 0]; s[0] += quality[i]; s[1]++; sum.set(keyOf(i), s); }
  try {
    for (let i = 0; i < c.p.n; i++) if (cook(i)) { const [s, n] = sum.get(keyOf(i)) as [number, number]; c.p.quality[i] = s / n; }
    anchorRealisedMedians(c, dry, surface.anchoredNbhd, ref.nbhdSales, years.filter((y) => y <= surface.lastRealYear));
    return areaIqrs(c, dry, years);
  } finally {
    c.p.quality.set(quality);
    levels.forEach((t, k) => (c.timeOf[k] = t));
  }
}
