// The known price surface: the ARV and the cost-based as-is value of a house that needs work, the time index anchored
// on the real 2015-2019 levels then the stated synthetic path, and a location effect smooth enough for comps within a mile.
import { describe, expect, it } from 'vitest';
import { dayOfIso } from '../../../src/store/days.js';
import { loadGenReference, countyMedianByYear } from '../../../src/ingest/generate/reference.js';
import { Rng } from '../../../src/ingest/generate/rng.js';
import { COND_DATED, COND_DISTRESSED, COND_NEW, COND_RENOVATED, TimeIndex, asIsUsd, lnArv, repairCostUsd, tractLocationLogs } from '../../../src/ingest/generate/surface.js';
import { buildCookTracts, buildLakeTracts } from '../../../src/ingest/generate/tracts.js';
import { GENERATOR } from '../../../src/registry/groups/generator.js';

const G = GENERATOR.v;
const ref = loadGenReference();
const time = TimeIndex.fromReference(ref, 2026);
const house = { sqft: 1500, beds: 3, yearBuilt: 1925, units: 1, isCondo: false };
const day = dayOfIso('2024-03-15');
const anchorDay = dayOfIso(G.repair_cost_anchor_date);

describe('lnArv', () => {
  it('prices a new building 8% over the same building renovated (brief: new +8%)', () => {
    expect(Math.exp(lnArv(12, time, house, true, day, 2024) - lnArv(12, time, house, false, day, 2024))).toBeCloseTo(1.08, 3);
  });

  it('puts the renovated reference house ln(1/0.88) over the location level (the 1.x dated-to-renovated gap)', () => {
    const ref1500 = { ...house, yearBuilt: 2024 - G.ref_age_years };
    expect(lnArv(12, time, ref1500, false, day, 2024) - 12 - time.logAt(day)).toBeCloseTo(Math.log(1 / 0.88), 3);
  });

  it('scales with living area by the sqft elasticity', () => {
    const big = { ...house, sqft: 3000 };
    expect(lnArv(12, time, big, false, day, 2024) - lnArv(12, time, house, false, day, 2024)).toBeCloseTo(G.beta_ln_sqft * Math.log(2), 9);
  });
});

describe('repairCostUsd', () => {
  it('costs $/sqft of the condition × sqft × scope on the anchor date, nothing for renovated or new', () => {
    expect(repairCostUsd(COND_DISTRESSED, 1500, 1, anchorDay)).toBeCloseTo(G.repair_psf_usd[0] * 1500, 6);
    expect(repairCostUsd(COND_DATED, 1500, 1.2, anchorDay)).toBeCloseTo(G.repair_psf_usd[1] * 1500 * 1.2, 6);
    expect(repairCostUsd(COND_RENOVATED, 1500, 1, anchorDay)).toBe(0);
    expect(repairCostUsd(COND_NEW, 1500, 1, anchorDay)).toBe(0);
  });

  it('grows at the repair-cost rate: one year earlier it is exp(-rate) as much', () => {
    const ratio = repairCostUsd(COND_DISTRESSED, 1500, 1, anchorDay - 365.2425) / repairCostUsd(COND_DISTRESSED, 1500, 1, anchorDay);
    expect(ratio).toBeCloseTo(Math.exp(-G.repair_cost_growth_log_per_year), 9);
  });
});

describe('asIsUsd', () => {
  // Hand-computed with the registry values: distressed bid = ARV × (1 − 0.25) − 1.1 × repair; dated = ARV − 0.8 × repair.
  it.each([
    ['distressed, dear house', COND_DISTRESSED, 600_000, 150_000, 600_000 * 0.75 - 1.1 * 150_000],
    ['distressed, cheap house (at the 20% floor)', COND_DISTRESSED, 150_000, 120_000, 0.2 * 150_000],
    ['dated', COND_DATED, 400_000, 52_500, 400_000 - 0.8 * 52_500],
    ['renovated', COND_RENOVATED, 400_000, 0, 400_000],
  ])('values a %s', (_, cond, arv, repair, want) => {
    expect(asIsUsd(arv, cond, repair)).toBeCloseTo(want, 6);
  });

  it('discounts a cheap house more than a dear one for the same work, in relative terms', () => {
    const repair = repairCostUsd(COND_DATED, 1500, 1, anchorDay);
    const discount = (arv: number): number => 1 - asIsUsd(arv, COND_DATED, repair) / arv;
    expect(discount(200_000)).toBeGreaterThan(2 * discount(800_000));
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
