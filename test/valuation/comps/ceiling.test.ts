// The appraisal ceiling's max_reno_sale_24mo (src/valuation/comps/ceiling.ts): the highest market renovated/new sale
// of the subject's property type and county within appraisal_ceiling_radius_mi over appraisal_ceiling_window_days —
// every such sale, not only the comps a Tier-1 query keeps — and nothing else.
import { describe, expect, it } from 'vitest';
import { TIER1 } from '../../../src/registry/groups/tier1.js';
import { valueProperty } from '../../../src/valuation/value.js';
import { haversineMi } from '../../../src/reference/geo.js';
import { CONDITION_CODE } from '../../../src/store/columns.js';
import { maxRenoSale24mo } from '../../../src/valuation/comps/ceiling.js';
import { AS_OF_ISO, SUBJECT, contextOf, renovatedRows, salesOf, type Row } from '../tier1-fixture.js';
import { usePointEverywhere } from '../../support/scoring-corpus.js';

const subject = { lat: SUBJECT.lat, lon: SUBJECT.lon, units: 1, sqft: 1500, beds: 3, asOf: AS_OF_ISO };
const ceilingOf = (rows: Row[]) => valueProperty(subject, contextOf(salesOf(rows))).arv.appraisal_ceiling;

describe('max_reno_sale_24mo', () => {
  it('counts a qualified renovated sale beyond the 12 comps a Tier-1 query keeps', () => {
    // 20 qualified comps near the subject; the highest sale is the least similar (farthest, oldest), so it is not
    // among the 12 selected — yet it is a renovated market sale within 0.5 mi over 24 months.
    const rows: Row[] = [...renovatedRows(20), { distMi: 0.45, daysAgo: 600, price: 321_000 }];
    expect(ceilingOf(rows)?.max_reno_sale_24mo).toBe(321_000);
  });

  it('leaves out what is not a market renovated/new sale of the same type and county in the radius and window', () => {
    const base = renovatedRows(8);
    const outside: Row[] = [
      { distMi: 0.55, daysAgo: 60, price: 900_000 }, // beyond 0.5 mi
      { distMi: 0.2, daysAgo: TIER1.v.appraisal_ceiling_window_days + 1, price: 900_000 }, // older than 24 months
      { distMi: 0.2, daysAgo: 60, price: 900_000, cond: 'dated' }, // not renovated/new
      { distMi: 0.2, daysAgo: 60, price: 900_000, ptype: 'mf2_4' }, // another property type
      { distMi: 0.2, daysAgo: 60, price: 900_000, deed: 'quitclaim' }, // not a market sale
    ];
    expect(ceilingOf([...base, ...outside])?.max_reno_sale_24mo).toBe(320_000);
    // a new-construction sale counts, and a sale rejected only for its size (GLA band) still counts
    expect(ceilingOf([...base, { distMi: 0.3, daysAgo: 90, price: 410_000, cond: 'new' }])?.max_reno_sale_24mo).toBe(410_000);
    expect(ceilingOf([...base, { distMi: 0.3, daysAgo: 90, price: 420_000, sqft: 4000 }])?.max_reno_sale_24mo).toBe(420_000);
  });
});

describe('max_reno_sale_24mo on the test corpus', () => {
  const fx = usePointEverywhere();
  it('equals a scan of every sale for parcels across the corpus', () => {
    const { sales, parcelSales } = fx.ctx;
    const arms = parcelSales.arms;
    const r = TIER1.v.appraisal_ceiling_radius_mi, w = TIER1.v.appraisal_ceiling_window_days;
    let some = 0;
    for (let k = 0; k < 300; k++) {
      const row = Math.floor((k * sales.length) / 300);
      const s = { lat: sales.lat[row], lon: sales.lon[row], sqft: null, beds: null, ptype: sales.ptype[row], county: sales.county[row], asOfDay: sales.saleDay[row] + 200, excludeParcelIdx: sales.parcelIdx[row] };
      let want: number | null = null;
      for (let i = 0; i < sales.length; i++) {
        if (arms[i] !== 1 || sales.ptype[i] !== s.ptype || sales.county[i] !== s.county || sales.parcelIdx[i] === s.excludeParcelIdx) continue;
        if (sales.condition[i] !== CONDITION_CODE.renovated && sales.condition[i] !== CONDITION_CODE.new) continue;
        if (sales.saleDay[i] < s.asOfDay - w || sales.saleDay[i] >= s.asOfDay) continue;
        if (haversineMi(s.lat, s.lon, sales.lat[i], sales.lon[i]) > r) continue;
        if (want === null || sales.priceUsd[i] > want) want = sales.priceUsd[i];
      }
      if (want !== null) some++;
      expect(maxRenoSale24mo(fx.ctx, s)).toBe(want);
    }
    expect(some).toBeGreaterThan(100);
  });
});
