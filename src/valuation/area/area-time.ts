// The area context's time factor from the kernel's monthly price-level series (kernel/types.ts TimeIndexSeries),
// with the kernel's exact rule (crates/avm-kernel/src/timeindex.rs) so area and Tier-1 comps are indexed alike.
import type { TimeIndexSeries } from '../../kernel/types.js';
import { COMP_POLICY } from '../../registry/groups/comp-policy.js';
import type { TimeFactor } from './area-premium.js';
import { levelLookup } from '../comps/time-index.js';
import { monthOfDay } from '../../store/days.js';

const DAYS_PER_YEAR = 365.2425; // mean Gregorian year, as the kernel (dates.rs)

/**
 * factor = level(month(to)) / level(month(from)), |ln factor| capped at years × ln(1 + time_index_max_annual), then
 * clamped to time_index_clamp; 1 for a county without a series.
 */
export function timeFactorFromSeries(series: readonly TimeIndexSeries[]): TimeFactor {
  const byCounty = new Map(series.map((s) => [s.county, levelLookup(s)]));
  const p = COMP_POLICY.v;
  return (county, saleDay, toDay) => {
    const level = byCounty.get(county);
    if (!level) return 1;
    const raw = level(monthOfDay(toDay)) / level(monthOfDay(saleDay));
    const maxLn = Math.max(0, (toDay - saleDay) / DAYS_PER_YEAR) * Math.log(1 + p.time_index_max_annual);
    const ln = Math.log(raw);
    const capped = ln > maxLn ? Math.exp(maxLn) : ln < -maxLn ? Math.exp(-maxLn) : raw;
    return Math.min(p.time_index_clamp[1], Math.max(p.time_index_clamp[0], capped));
  };
}

/**
 * tf(saleCounty, saleDay, toDay) for an area pool's sales (county `county`, toDay − span ≤ saleDay < toDay), each
 * computed once per (county, toDay, saleDay) and then read from a table: a tract pool repeats its sale days across
 * subjects, and each factor costs two level lookups and a logarithm. Anything else: tf itself; no tf: 1.
 */
export function factorReader(tf: TimeFactor | null, county: number, toDay: number, span: number): (saleCounty: number, saleDay: number) => number {
  if (!tf) return () => 1;
  let tables = FACTOR_TABLES.get(tf);
  if (tables === undefined) FACTOR_TABLES.set(tf, (tables = new Map()));
  const key = `${county}:${toDay}:${span}`;
  let table = tables.get(key);
  if (table === undefined) {
    if (tables.size >= FACTOR_TABLES_MAX) tables.clear();
    tables.set(key, (table = new Float64Array(span + 1).fill(NaN)));
  }
  const t = table;
  return (saleCounty, saleDay) => {
    const back = toDay - saleDay;
    if (saleCounty !== county || !(back > 0 && back <= span)) return tf(saleCounty, saleDay, toDay);
    const f = t[back];
    return f === f ? f : (t[back] = tf(county, saleDay, toDay));
  };
}

/** factorReader's tables of each time factor (a snapshot's), by (county, toDay, span). */
const FACTOR_TABLES = new WeakMap<TimeFactor, Map<string, Float64Array>>();
/** Tables kept before starting over (a served day and the as-of days callers ask for; ~6 KB each). */
const FACTOR_TABLES_MAX = 64;
