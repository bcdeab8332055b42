// The bedroom band of 2-4-unit buildings compares bedrooms per unit (issue 14 item 5): a 4-unit building with 8
// bedrooms (2 per unit) is a comparable of a 2-unit building with 4 (2 per unit); single-family rows keep total beds.
import { describe, expect, it } from 'vitest';
import { createKernel } from '../../../src/kernel/index.js';
import { STRATUM } from '../../../src/kernel/params.js';
import { PTYPE_CODE } from '../../../src/store/columns.js';
import { comparableBeds, kernelColumnsOf } from '../../../src/valuation/comps/kernel-columns.js';
import { buildParcelSalesIndex } from '../../../src/valuation/comps/flip-pairs.js';
import { computeTier1, kernelSubject, type Tier1Subject } from '../../../src/valuation/comps/tier1.js';
import { AS_OF_DAY, SUBJECT, salesOf } from '../tier1-fixture.js';

describe('comparableBeds', () => {
  it('is bedrooms per unit (rounded) for a 2-4-unit building with known units, total beds otherwise', () => {
    expect(comparableBeds(8, PTYPE_CODE.mf2_4, 4)).toBe(2);
    expect(comparableBeds(4, PTYPE_CODE.mf2_4, 2)).toBe(2);
    expect(comparableBeds(9, PTYPE_CODE.mf2_4, 3)).toBe(3);
    expect(comparableBeds(5, PTYPE_CODE.mf2_4, 2)).toBe(3); // 2.5 rounds half up
    expect(comparableBeds(3, PTYPE_CODE.sfh, 1)).toBe(3);
    expect(comparableBeds(6, PTYPE_CODE.mf2_4, 0)).toBe(-1); // units unknown: per-unit figure unknown, no band
    expect(comparableBeds(-1, PTYPE_CODE.mf2_4, 2)).toBe(-1);
  });
});

describe('Tier-1 bedroom band on 2-4-unit buildings', () => {
  // Six renovated 4-unit comps with 8 bedrooms; sqft within the GLA band of the subject.
  const sales = salesOf(Array.from({ length: 6 }, (_, i) => ({ price: 500_000 + 5_000 * i, sqft: 3000, beds: 8, ptype: 'mf2_4' as const, distMi: 0.1 + 0.02 * i })));
  sales.units.fill(4);
  const deps = { kernel: createKernel(kernelColumnsOf(sales), []), sales, parcelSales: buildParcelSalesIndex(sales) };
  const subject: Tier1Subject = { ...SUBJECT, sqft: 3000, beds: 4, ptype: PTYPE_CODE.mf2_4, county: 1, asOfDay: AS_OF_DAY, excludeParcelIdx: null, units: 2 };

  it('accepts a 4-unit 8-bed comp for a 2-unit 4-bed subject (2 bedrooms per unit each)', () => {
    const t = computeTier1(deps, subject, { withCeiling: false });
    expect(t.rejected.filter((r) => r.reason === 'beds_band')).toEqual([]);
    expect(t.evidence.nComps).toBe(6);
  });

  it('still rejects a comp 2 bedrooms per unit away (4-unit 8-bed comps for a 2-unit 8-bed subject: 2 vs 4 per unit)', () => {
    const t = computeTier1(deps, { ...subject, beds: 8 }, { withCeiling: false });
    expect(t.evidence.nComps).toBe(0);
    expect(t.rejected.map((r) => r.reason)).toEqual(Array(6).fill('beds_band'));
  });

  it('hands the kernel the per-unit figure for the subject and leaves single-family subjects alone', () => {
    expect(kernelSubject(subject).beds).toBe(2);
    expect(kernelSubject({ ...subject, units: null }).beds).toBeNull();
    expect(kernelSubject({ ...subject, ptype: PTYPE_CODE.sfh, units: 1, beds: 3 }).beds).toBe(3);
    const res = deps.kernel.queryComps({ ...kernelSubject(subject), stratumMask: STRATUM.arv });
    expect(res.accepted).toHaveLength(6);
  });
});
