// Time index: residualized monthly medians, chained through thin months, and no leakage past the cutoff.
import { describe, expect, it } from 'vitest';
import { buildTimeIndex } from '../../../src/valuation/comps/time-index.js';
import { firstDayOfMonth, monthOfDay } from '../../../src/store/days.js';
import { salesOf, type Row } from '../tier1-fixture.js';
import { AS_OF_DAY } from '../tier1-fixture.js';

/** 24 sales per month for 12 months before the as-of day; $/sf grows 1% a month (price = 1500 sf × 200 × 1.01^k). */
function risingRows(extra: Row[] = []): Row[] {
  const rows: Row[] = [];
  for (let k = 0; k < 12; k++) for (let j = 0; j < 24; j++) rows.push({ price: 1500 * 200 * 1.01 ** k * (1 + ((j % 3) - 1) * 0.02), daysAgo: 30 * (12 - k) - 15 + (j % 5), cond: j % 2 ? 'dated' : 'renovated' });
  return [...rows, ...extra];
}

describe('time index', () => {
  const cutoff = AS_OF_DAY;
  const base = buildTimeIndex(salesOf(risingRows()), cutoff);

  it('one Cook series, months strictly increasing, last level 1', () => {
    expect(base.series).toHaveLength(1);
    const s = base.series[0];
    const months = Array.from(s.months);
    expect(months.every((m, i) => i === 0 || m === months[i - 1] + 1)).toBe(true);
    expect(months[months.length - 1]).toBe(monthOfDay(cutoff - 1));
    expect(s.levels[s.levels.length - 1]).toBe(1);
  });

  it('tracks a rising market (about 1% a month) despite the condition mix', () => {
    const lv = Array.from(base.series[0].levels);
    const growth = Math.log(lv[lv.length - 2] / lv[1]) / (lv.length - 3);
    expect(growth).toBeGreaterThan(0.005);
    expect(growth).toBeLessThan(0.015);
  });

  it('no leakage: sales on or after the cutoff change nothing', () => {
    const future: Row[] = Array.from({ length: 50 }, (_, j) => ({ price: 9_000_000 + j, daysAgo: -j }));
    const withFuture = buildTimeIndex(salesOf(risingRows(future)), cutoff);
    expect(withFuture.series).toEqual(base.series);
    expect(withFuture.counts).toEqual(base.counts);
  });

  it('month arithmetic agrees with the kernel (year*12 + month-1)', () => {
    expect(monthOfDay(0)).toBe(1970 * 12);
    expect(firstDayOfMonth(monthOfDay(20_400))).toBe(20_393); // 2025-11-01
  });

  it('monthOfDay (calendar arithmetic, no Date) equals the UTC calendar of Date on every day of ±2,700 years', () => {
    const viaDate = (day: number): number => {
      const d = new Date(day * 86_400_000);
      return d.getUTCFullYear() * 12 + d.getUTCMonth();
    };
    const bad: number[] = [];
    for (let day = -1_000_000; day <= 1_000_000; day++) if (monthOfDay(day) !== viaDate(day)) bad.push(day);
    expect(bad).toEqual([]);
    for (const day of [0.5, -0.5, 12_345.9, -12_345.9, 1e8, -1e8]) expect(monthOfDay(day)).toBe(viaDate(day));
    for (const day of [Number.NaN, Number.POSITIVE_INFINITY, 1e8 + 1, -1e8 - 1]) expect(monthOfDay(day)).toBeNaN();
  });
});
