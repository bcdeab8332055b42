import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { derivePriceLevels, isCondoPin } from '../../src/reference/derive/price-levels.js';

const FIXTURE = readFileSync(join(import.meta.dirname, 'fixtures', 'sales-sample.csv'), 'utf8');

describe('isCondoPin(pin)', () => {
  it('treats non-zero unit digits as a condo unit', () => {
    expect(isCondoPin('17010000041001')).toBe(true);
    expect(isCondoPin('17010000010000')).toBe(false);
  });
});

describe('derivePriceLevels(csv, minGroupN)', () => {
  const levels = derivePriceLevels(FIXTURE, 1);

  it('recomputes the 2015 area-17 non-condo stats by hand', () => {
    // prices 100k, 200k, 400k: median 200k; p10 h=0.2 -> 120k; p25 h=0.5 -> 150k; p75 h=1.5 -> 300k; p90 h=1.8 -> 360k
    // ln prices are ln(2e5) - ln2, ln(2e5), ln(2e5) + ln2: mean ln(2e5) = 12.206073, sample sd = ln 2 = 0.693147
    expect(levels.by_area['17']['2015'].noncondo).toEqual({ n: 3, median: 200000, p10: 120000, p25: 150000, p75: 300000, p90: 360000, mean_log: 12.206073, sd_log: 0.693147 });
  });

  it('splits condo and non-condo and pools all sales per year', () => {
    // 2015 all: 100k, 150k, 200k, 250k, 400k -> median 200k; condo 150k, 250k -> median (150k+250k)/2
    expect(levels.county['2015'].all?.median).toBe(200000);
    expect(levels.county['2015'].condo?.median).toBe(200000);
    expect(levels.county['2015'].condo?.n).toBe(2);
    // 2016 non-condo: 300k, 500k -> 400k, area 13 only
    expect(levels.county['2016'].noncondo?.median).toBe(400000);
    expect(levels.by_area['13']['2016'].noncondo?.median).toBe(400000);
    expect(levels.by_area['17'].all_years.condo?.n).toBe(2);
  });

  it('reports the yearly median assessed/sale ratio, skipping rows without an assessed value', () => {
    // 2015 ratios 0.9, 1.0, 0.8, 1.1 (250k row has no AV) -> sorted 0.8 0.9 1.0 1.1 -> median 0.95
    expect(levels.assessment_ratio['2015']).toEqual({ n: 4, median: 0.95 });
    expect(levels.n_sales).toBe(7);
    expect(levels.years).toEqual([2015, 2016]);
  });

  it('omits groups under the size floor', () => {
    const floor3 = derivePriceLevels(FIXTURE, 3);
    expect(floor3.by_area['17']['2015'].noncondo?.n).toBe(3);
    expect(floor3.by_area['17'].all_years.condo).toBeUndefined();
    expect(floor3.county['2016']).toEqual({});
    expect(floor3.source).toContain('fewer than 3 sales');
  });

  it('rejects a malformed PIN', () => {
    expect(() => derivePriceLevels('PIN,SALE_YEAR,SALE_PRICE,ASSESSED_VALUE\n1234,2015,100,1\n')).toThrow(/bad PIN/);
  });
});
