// Valuations are as of today's UTC date (src/valuation/value.ts: `ctx.now()` in the worker that answers), and the
// date moves every inputs_hash and some values (comps enter and leave the ladder's day windows at midnight). Two
// answers computed on either side of a UTC midnight are answers for two days, not a disagreement between doors.
import { utcDay } from '../../src/store/days.js';

/** Today's UTC date, `YYYY-MM-DD`. */
export const today = (): string => utcDay(new Date());

/**
 * `collect(day)`, run again when a UTC midnight passed while it ran: the result returned was collected wholly on one
 * day (the next midnight is a day away, so a second run is the last). Collect first, assert after.
 */
export async function onOneUtcDay<T>(collect: (day: string) => Promise<T>): Promise<T> {
  for (;;) {
    const day = today();
    const out = await collect(day);
    if (today() === day) return out;
  }
}
