import { describe, expect, it } from 'vitest';
import { dayOfIso, isoOfDay } from '../../src/store/days.js';

describe('isoOfDay', () => {
  it('formats every day the same inside and outside its table (0 .. 72,999) and on a second read', () => {
    const days = [-719_528, -1, 0, 1, 20_759, 72_998, 72_999, 73_000, 73_001, 2_000_000];
    for (const day of days) {
      const text = new Date(day * 86_400_000).toISOString().slice(0, 10);
      expect(isoOfDay(day)).toBe(text);
      expect(isoOfDay(day)).toBe(text);
    }
    expect(isoOfDay(dayOfIso('2026-11-02'))).toBe('2026-11-02');
    expect(isoOfDay(72_999)).toBe('2169-11-12');
  });
});
