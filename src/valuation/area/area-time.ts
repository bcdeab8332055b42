// The area context's time factor from the kernel's monthly price-level series (kernel/types.ts TimeIndexSeries),
// with the kernel's exact rule (crates/avm-kernel/src/timeindex.rs) so area and Tier-1 comps are indexed alike.
import type { TimeIndexSeries } from '../../kernel/types.js';
import { COMP_POLICY } from '../../registry/groups/comp-policy.js';
import type { TimeFactor } from './area-premium.js';
import { levelAt } from '../comps/time-index.js';
import { monthOfDay } from '../../store/days.js';

const DAYS_PER_YEAR = 365.2425; // mean Gregorian year, as the kernel (dates.rs)

/**
 * factor = level(month(to)) / level(month(from)), |ln factor| capped at years × ln(1 + time_index_max_annual), then
 * clamped to time_index_clamp; 1 for a county without a series.
 */
export function timeFactorFromSeries(series: readonly TimeIndexSeries[]): TimeFactor {
  const byCounty = new Map(series.map((s) => [s.county, s]));
  const p = COMP_POLICY.v;
  return (county, saleDay, toDay) => {
    const s = byCounty.get(county);
    if (!s) return 1;
    const raw = levelAt(s, monthOfDay(toDay)) / levelAt(s, monthOfDay(saleDay));
    const maxLn = Math.max(0, (toDay - saleDay) / DAYS_PER_YEAR) * Math.log(1 + p.time_index_max_annual);
    const ln = Math.log(raw);
    const capped = ln > maxLn ? Math.exp(maxLn) : ln < -maxLn ? Math.exp(-maxLn) : raw;
    return Math.min(p.time_index_clamp[1], Math.max(p.time_index_clamp[0], capped));
  };
}
