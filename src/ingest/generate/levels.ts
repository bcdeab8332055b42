// Real price levels per CCAO neighborhood and year (generator 3.0.0): each Cook neighborhood's yearly ln level is the
// real class-2 median of that year (cw353-sales-map, 2012-2022) when the year holds enough sales, else the county level
// of the year plus the neighborhood's pooled relative level; years after the last real one follow the county level
// grown by the generator's yearly path. A neighborhood without real sales has no series (it keeps the kernel surface).
import { GENERATOR } from '../../registry/groups/generator.js';
import type { NbhdYearSales } from '../../reference/types.js';
import { TimeIndex } from './surface.js';

const G = GENERATOR.v;
/** First year of time_growth_log_2020_2026. */
const GROWTH_FIRST_YEAR = 2020;

export type NbhdLevels = {
  /** Real class-2 county level per year: sales-weighted mean of the neighborhoods' ln medians. */
  countyLog: Map<number, number>;
  lastRealYear: number;
  /** ln level by year (real years, then extended to lastYear) per neighborhood with real sales. */
  byNbhd: Map<string, Map<number, number>>;
  /** Mean real yearly class-2 sales per neighborhood over the volume years (the parcel density weight). */
  volume: Map<string, number>;
};

function extend(levels: Map<number, number>, lastReal: number, lastYear: number): void {
  let level = levels.get(lastReal) as number;
  for (let y = lastReal + 1; y <= lastYear; y++) {
    const k = Math.min(Math.max(y - GROWTH_FIRST_YEAR, 0), G.time_growth_log_2020_2026.length - 1);
    level += G.time_growth_log_2020_2026[k];
    levels.set(y, level);
  }
}

/** Mean real yearly class-2 sales per neighborhood over nbhd_volume_years (0-sale years count as 0). */
export function nbhdVolumes(rows: readonly NbhdYearSales[]): Map<string, number> {
  const [from, to] = G.nbhd_volume_years;
  const out = new Map<string, number>();
  for (const r of rows) if (r.year >= from && r.year <= to) out.set(r.townNbhd, (out.get(r.townNbhd) ?? 0) + r.count / (to - from + 1));
  return out;
}

/** Neighborhood and county level series from the real per-neighborhood aggregates, extended to `lastYear`. */
export function buildNbhdLevels(rows: readonly NbhdYearSales[], lastYear: number): NbhdLevels {
  const years = [...new Set(rows.map((r) => r.year))].sort((a, b) => a - b);
  const lastRealYear = years[years.length - 1];
  const countyLog = new Map<number, number>();
  for (const y of years) {
    let s = 0, w = 0;
    for (const r of rows) if (r.year === y) { s += r.count * Math.log(r.median); w += r.count; }
    countyLog.set(y, s / w);
  }
  extend(countyLog, lastRealYear, lastYear);
  const byNbhdRows = new Map<string, NbhdYearSales[]>();
  for (const r of rows) {
    const list = byNbhdRows.get(r.townNbhd);
    if (list) list.push(r); else byNbhdRows.set(r.townNbhd, [r]);
  }
  const [poolFrom, poolTo] = G.nbhd_level_pool_years;
  const byNbhd = new Map<string, Map<number, number>>();
  for (const [nbhd, list] of byNbhdRows) {
    let s = 0, w = 0;
    for (const r of list) {
      if (r.year >= poolFrom && r.year <= poolTo) { s += r.count * (Math.log(r.median) - (countyLog.get(r.year) as number)); w += r.count; }
    }
    if (w === 0) continue;
    const pooledRel = s / w;
    const levels = new Map<number, number>();
    for (const y of years) {
      const own = list.find((r) => r.year === y);
      levels.set(y, own && own.count >= G.nbhd_level_min_year_n ? Math.log(own.median) : (countyLog.get(y) as number) + pooledRel);
    }
    extend(levels, lastRealYear, lastYear);
    byNbhd.set(nbhd, levels);
  }
  return { countyLog, lastRealYear, byNbhd, volume: nbhdVolumes(rows) };
}

/** Time index of one neighborhood: its ln level by year as July anchors, seasonality on top. */
export function nbhdTimeIndex(levels: Map<number, number>): TimeIndex {
  return TimeIndex.fromAnchors([...levels.entries()].sort((a, b) => a[0] - b[0]));
}
