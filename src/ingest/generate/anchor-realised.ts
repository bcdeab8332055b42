// Anchoring the realised neighborhood-year medians (generator 3.1.0). The all-condition anchoring (anchor-levels.ts)
// puts a neighborhood's *expected* median sale on its real median on one day; the median of the n sales a
// neighborhood-year actually gets then misses it by sampling alone (about 1.25 x the within-neighborhood spread /
// sqrt(n): 0.07 log at 30 sales). Measured on seed 1 of 3.0.0, that sampling accounted for all of the gap variance
// (var(gap) 0.0066 against a mean bootstrap variance of the synthetic median of 0.0071; bias -0.015 log).
// So the sales are drawn twice from the same random stream: a dry pass records every row; the July anchors of each
// neighborhood-year with a real median of >= nbhd_level_min_year_n sales are then moved (whole years, later years
// carried along) until the realised median of that pass lands on the real one; the written pass re-draws the same
// rows (the draws do not depend on values) on the moved levels. A level move moves every true value of the
// neighborhood with the price: the truth stays the price's noise-free value.
import { GENERATOR } from '../../registry/groups/generator.js';
import type { NbhdYearSales } from '../../reference/types.js';
import { medianOfPrefix } from '../../reference/stats.js';
import { yearOfDay } from '../../store/days.js';
import { movedLnPrice, type DrySales } from './dry-sales.js';
import type { SalesCtx } from './sales.js';
import type { TimeIndex } from './surface.js';

const ITERATIONS = 12; // Jacobi steps: a calendar year's median moves ~0.75 with its own July anchor and ~0.25 with the next; 12 close it below 0.001 log
const LN_PRICE_FLOOR = Math.log(10_000); // the real aggregates keep sales over $10k (realism.ts compares the same rows)

type Group = { nbhd: string; year: number; target: number; rows: number[] };

/**
 * Moves the July anchors of the real neighborhood-years in `years` so the dry pass's realised all-row median (Cook
 * rows over $10k) equals the real median; rewrites `c.timeOf` of the neighborhood's tracts. A row's price is taken to
 * move with its true value (noise, deed and defect multipliers fixed). Returns the shifts (ln) by `nbhd|year`.
 */
export function anchorRealisedMedians(
  c: SalesCtx & { timeOf: TimeIndex[] }, dry: DrySales, nbhdOf: readonly (string | null)[], real: readonly NbhdYearSales[], years: readonly number[],
): Map<string, number> {
  const target = new Map(real.filter((r) => years.includes(r.year) && r.count >= GENERATOR.v.nbhd_level_min_year_n).map((r) => [`${r.townNbhd}|${r.year}`, Math.log(r.median)]));
  const groups = new Map<string, Group>();
  dry.rows.forEach((r, k) => {
    const nbhd = nbhdOf[c.p.tract[r.parcel]];
    const key = `${nbhd}|${yearOfDay(r.day)}`;
    const t = nbhd === null ? undefined : target.get(key);
    if (t === undefined) return;
    const g = groups.get(key);
    if (g) g.rows.push(k); else groups.set(key, { nbhd: nbhd as string, year: yearOfDay(r.day), target: t, rows: [k] });
  });
  const byNbhd = new Map<string, Group[]>();
  for (const g of groups.values()) if (g.rows.length >= GENERATOR.v.realised_anchor_min_rows) byNbhd.set(g.nbhd, [...(byNbhd.get(g.nbhd) ?? []), g]);
  const tractsOf = new Map<string, number[]>();
  nbhdOf.forEach((n, t) => { if (n !== null && byNbhd.has(n)) tractsOf.set(n, [...(tractsOf.get(n) ?? []), t]); });
  const shifts = new Map<string, number>();
  const scratch = new Float64Array(dry.rows.length);
  for (const [nbhd, list] of [...byNbhd].sort((a, b) => a[0].localeCompare(b[0]))) {
    const tr = tractsOf.get(nbhd) as number[];
    const base: TimeIndex = c.timeOf[tr[0]];
    const shift = new Map(list.map((g) => [g.year, 0]));
    const lastYear = Math.max(...shift.keys());
    for (let it = 0; it < ITERATIONS; it++) {
      const time = base.withShifts((y) => shift.get(y) ?? (y > lastYear ? (shift.get(lastYear) as number) : 0));
      for (const t of tr) c.timeOf[t] = time;
      const step = list.map((g) => {
        let n = 0;
        for (const k of g.rows) {
          const lnPrice = movedLnPrice(c, dry.rows[k]);
          if (lnPrice > LN_PRICE_FLOOR) scratch[n++] = lnPrice; // a row can cross the $10k floor as its level moves
        }
        return n > 0 ? g.target - medianOfPrefix(scratch, n) : 0;
      });
      list.forEach((g, j) => shift.set(g.year, (shift.get(g.year) as number) + step[j]));
    }
    const time = base.withShifts((y) => shift.get(y) ?? (y > lastYear ? (shift.get(lastYear) as number) : 0));
    for (const t of tr) c.timeOf[t] = time;
    for (const [y, s] of shift) shifts.set(`${nbhd}|${y}`, s);
  }
  return shifts;
}
