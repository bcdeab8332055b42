// As-is value: a subject of stated condition goes primary → relaxed → mixed_condition_haircut → null with
// as_is_thin_evidence; one of unknown condition is valued from every sale around it (issue 14); never blended into arv (INV-8).
import { describe, expect, it } from 'vitest';
import { CONDITION_CODE } from '../../../src/store/columns.js';
import { valueAsIs } from '../../../src/valuation/comps/as-is.js';
import { valueProperty } from '../../../src/valuation/value.js';
import { AS_OF_DAY, SUBJECT, calTable, contextOf, renovatedRows, salesOf, type Row } from '../tier1-fixture.js';

const kSubject = { lat: SUBJECT.lat, lon: SUBJECT.lon, sqft: 1500, beds: 3, ptype: 0, county: 1, asOfDay: AS_OF_DAY, excludeParcelIdx: null };
/** As-is of a subject whose condition the caller states as dated (the strata of the spec's steps apply). */
const asIsOf = (rows: Row[]) => valueAsIs(contextOf(salesOf(rows)).kernel, kSubject, CONDITION_CODE.dated);

describe('as-is value', () => {
  it('primary: median of ≥3 dated/distressed sales in the ladder', () => {
    // prices 200k, 210k, 190k (dated/distressed, 0.1–0.3 mi, 30 days): 2 dated, so the pooled stratum → median 200k
    const r = asIsOf([{ price: 200_000, cond: 'dated' }, { price: 210_000, cond: 'distressed', distMi: 0.2 }, { price: 190_000, cond: 'dated', distMi: 0.3 }]);
    expect(r.asIs).toMatchObject({ value: 200_000, n_comps: 3, as_is_basis: 'primary', as_is_stratum: 'dated_distressed' });
    expect(r.warnings).toEqual([]);
  });

  it('relaxed: the same stratum at 1.0 mi / 48 months when the ladder finds fewer than 3', () => {
    // 0.9 mi and 2 years old: outside step 3 (1.0 mi but 365 days), inside the relaxed 1.0 mi / 1461 days
    const rows: Row[] = [200_000, 220_000, 240_000].map((price) => ({ price, cond: 'dated', distMi: 0.9, daysAgo: 730 }));
    expect(asIsOf(rows).asIs).toMatchObject({ value: 220_000, as_is_basis: 'relaxed' });
  });

  it('mixed_condition_haircut: unknown-condition sales at 1.0 mi / 48 months, 5% off', () => {
    // median 220k × (1 − 0.05) = 209k
    const rows: Row[] = [200_000, 220_000, 240_000].map((price) => ({ price, cond: 'unknown', distMi: 0.9, daysAgo: 730 }));
    const r = asIsOf(rows);
    expect(r.asIs?.as_is_basis).toBe('mixed_condition_haircut');
    expect(r.asIs?.value).toBeCloseTo(209_000, 6);
  });

  it("a subject of known condition is valued from sales in that condition first, not from the pooled stratum", () => {
    // 3 distressed sales at 200k/210k/220k and 4 dated at 250k..280k (close enough that the MAD trim keeps all 7):
    // distressed median 210k, dated median 265k, pooled median 250k
    const rows: Row[] = [
      ...[200_000, 210_000, 220_000].map((price, i) => ({ price, cond: 'distressed' as const, distMi: 0.1 + 0.05 * i })),
      ...[250_000, 260_000, 270_000, 280_000].map((price, i) => ({ price, cond: 'dated' as const, distMi: 0.1 + 0.05 * i })),
    ];
    const kernel = contextOf(salesOf(rows)).kernel;
    expect(valueAsIs(kernel, kSubject, CONDITION_CODE.distressed).asIs).toMatchObject({ value: 210_000, n_comps: 3, as_is_basis: 'primary', as_is_stratum: 'distressed' });
    expect(valueAsIs(kernel, kSubject, CONDITION_CODE.dated).asIs).toMatchObject({ value: 265_000, n_comps: 4, as_is_stratum: 'dated' });
    expect(valueAsIs(kernel, kSubject).asIs).toMatchObject({ value: 250_000, n_comps: 7, as_is_stratum: 'all_conditions' });
    // fewer than 3 in its own condition: the pooled stratum, as the spec's primary step
    expect(valueAsIs(contextOf(salesOf(rows.slice(1))).kernel, kSubject, CONDITION_CODE.distressed).asIs).toMatchObject({ as_is_basis: 'primary', as_is_stratum: 'dated_distressed' });
  });

  it('a subject of unknown condition is valued from every sale around it, renovated ones included (all_conditions)', () => {
    // 2 dated at 280k/290k and 3 renovated at 300k..320k (close enough that the MAD trim keeps all 5): the market median 300k
    const rows: Row[] = [
      ...[280_000, 290_000].map((price, i) => ({ price, cond: 'dated' as const, distMi: 0.1 + 0.05 * i })),
      ...[300_000, 310_000, 320_000].map((price, i) => ({ price, cond: 'renovated' as const, distMi: 0.1 + 0.05 * i })),
    ];
    const r = valueAsIs(contextOf(salesOf(rows)).kernel, kSubject);
    expect(r.asIs).toMatchObject({ value: 300_000, n_comps: 5, as_is_basis: 'primary', as_is_stratum: 'all_conditions' });
  });

  it('null with as_is_thin_evidence when no step reaches 3', () => {
    const r = asIsOf([{ price: 200_000, cond: 'dated' }, ...renovatedRows(5)]);
    expect(r.asIs).toBeNull();
    expect(r.warnings).toEqual(['as_is_thin_evidence']);
  });

  it('INV-8: as-is evidence never moves arv and never appears among arv comps', () => {
    // The caller states the condition: the distressed stratum applies (an unstated one would use every sale)
    const subject = { lat: SUBJECT.lat, lon: SUBJECT.lon, units: 1, sqft: 1500, beds: 3, condition: 'distressed' as const };
    const cal = calTable('sfh_city', 'point');
    const without = valueProperty(subject, contextOf(salesOf(renovatedRows(8)), { calibration: cal }));
    const distressed: Row[] = [90_000, 95_000, 100_000, 105_000].map((price) => ({ price, cond: 'distressed' }));
    const withAsIs = valueProperty(subject, contextOf(salesOf([...renovatedRows(8), ...distressed]), { calibration: cal }));
    expect(withAsIs.value_as_is?.as_is_basis).toBe('primary');
    expect(without.value_as_is).toBeNull();
    expect(without.warnings).toContain('as_is_thin_evidence');
    expect(withAsIs.arv.value).toBe(without.arv.value);
    expect(withAsIs.artifact?.arv?.value).toBe(without.artifact?.arv?.value);
    expect(withAsIs.arv.comps?.every((c) => c.condition === 'renovated' || c.condition === 'new')).toBe(true);
  });
});
