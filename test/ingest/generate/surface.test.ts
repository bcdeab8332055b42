// The known price surface: condition effects, the time index anchored on the real 2015-2019 levels then the stated
// synthetic path, and a location effect smooth enough for comps within a mile.
import { describe, expect, it } from 'vitest';
import { dayOfIso } from '../../../src/store/days.js';
import { loadGenReference, countyMedianByYear } from '../../../src/ingest/generate/reference.js';
import { Rng } from '../../../src/ingest/generate/rng.js';
import { COND_DATED, COND_DISTRESSED, COND_NEW, COND_RENOVATED, TimeIndex, lnValue, tractLocationLogs } from '../../../src/ingest/generate/surface.js';
import { buildCookTracts, buildLakeTracts } from '../../../src/ingest/generate/tracts.js';
import { GENERATOR } from '../../../src/registry/groups/generator.js';

const ref = loadGenReference();
const time = new TimeIndex(ref, 2026);
const house = { sqft: 1500, beds: 3, yearBuilt: 1925, units: 1, isCondo: false };
const day = dayOfIso('2024-03-15');

describe('lnValue', () => {
  // Brief: distressed -30%, dated -12%, renovated 0, new +8% relative to renovated.
  it.each([
    [COND_DISTRESSED, 0.7],
    [COND_DATED, 0.88],
    [COND_NEW, 1.08],
  ])('prices condition %i at %f of the renovated value', (cond, ratio) => {
    const v = Math.exp(lnValue(12, time, house, cond, day, 2024) - lnValue(12, time, house, COND_RENOVATED, day, 2024));
    expect(v).toBeCloseTo(ratio, 3);
  });

  it('scales with living area by the sqft elasticity', () => {
    const big = { ...house, sqft: 3000 };
    const diff = lnValue(12, time, big, COND_DATED, day, 2024) - lnValue(12, time, house, COND_DATED, day, 2024);
    expect(diff).toBeCloseTo(GENERATOR.v.beta_ln_sqft * Math.log(2), 9);
  });
});

describe('TimeIndex', () => {
  const at = (iso: string): number => time.logAt(dayOfIso(iso));
  // Seasonality is a cosine of the day of year, so two July 1sts differ in it by < 0.001 (leap-day drift).
  it('follows the real county medians 2015 to 2019', () => {
    const med = countyMedianByYear(ref.priceLevels);
    expect(at('2019-07-01') - at('2015-07-01')).toBeCloseTo(Math.log((med.get(2019) as number) / (med.get(2015) as number)), 2);
  });

  it('continues with the synthetic yearly growth path to 2026', () => {
    const total = GENERATOR.v.time_growth_log_2020_2026.reduce((s, g) => s + g, 0);
    expect(at('2026-07-01') - at('2019-07-01')).toBeCloseTo(total, 2);
  });

  it('moves by month, not by year', () => {
    expect(at('2023-01-15')).not.toBe(at('2023-02-15'));
  });
});

describe('tractLocationLogs', () => {
  it('changes little between tracts less than a mile apart', () => {
    const tracts = [...buildCookTracts(ref, new Rng(2, 'tracts-cook')), ...buildLakeTracts(ref, new Rng(2, 'tracts-lake'))];
    const loc = tractLocationLogs(ref, tracts, new Rng(2, 'surface'));
    const diffs: number[] = [];
    tracts.forEach((t, i) =>
      tracts.forEach((u, j) => {
        if (j <= i || t.county !== u.county) return;
        const mi = Math.hypot((t.lat - u.lat) * 69.09, (t.lon - u.lon) * 69.09 * 0.74);
        if (mi < 1) diffs.push(Math.abs(loc[i] - loc[j]));
      }),
    );
    diffs.sort((a, b) => a - b);
    expect(diffs.length).toBeGreaterThan(500);
    // Within a mile the median location gap stays under 5% and the 95th percentile under 15% (comps stay informative).
    expect(diffs[Math.floor(diffs.length / 2)]).toBeLessThan(0.05);
    expect(diffs[Math.floor(diffs.length * 0.95)]).toBeLessThan(0.15);
  });
});
