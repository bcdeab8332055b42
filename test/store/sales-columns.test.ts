// armsLengthReasons / armsLengthMask is the kernel's arms-length screen (index.rs screen_rows) in TypeScript: on random
// small sales tables every row gets the reason the kernel reports for it when it is a candidate comp.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createKernel, STRATUM } from '../../src/kernel/index.js';
import type { KernelColumns } from '../../src/kernel/types.js';
import { DEED_CODE, REJECTION_REASONS } from '../../src/store/columns.js';
import { ARMS_LENGTH, armsLengthMask, armsLengthReasons, type SalesColumns } from '../../src/store/sales-columns.js';

type Sale = { parcel: number; day: number; price: number; deed: number; numParcels: number; north: number };

/** Prices on both sides of the $10k floor, and few enough distinct values that same-price repeats are common. */
const PRICES = [5_000, 9_999, 10_000, 150_000, 200_000, 250_000];
const DEEDS = Object.values(DEED_CODE);

const arbSale = fc.record({
  parcel: fc.nat({ max: 4 }),
  day: fc.nat({ max: 900 }), // a 90-day and a 365-day window fit several times: rapid resales and duplicates both occur
  price: fc.oneof(fc.constantFrom(...PRICES), fc.integer({ min: 1, max: 400_000 })),
  deed: fc.constantFrom(...DEEDS, DEED_CODE.warranty, DEED_CODE.warranty),
  numParcels: fc.constantFrom(1, 1, 1, 2, 3),
  north: fc.double({ min: 0, max: 1e-4, noNaN: true }), // all within a few yards of the subject
});

const BASE_DAY = 19_000;

/** The same sales as the kernel's columns and as the store's typed view (renovated SFH in Cook, 1,500 sqft). */
function tables(sales: readonly Sale[]): { kernel: KernelColumns; store: SalesColumns } {
  const n = sales.length;
  const kernel: KernelColumns = {
    parcelIdx: Uint32Array.from(sales, (s) => s.parcel), county: new Uint8Array(n).fill(1),
    lat: Float64Array.from(sales, (s) => 41.9 + s.north), lon: new Float64Array(n).fill(-87.7),
    saleDay: Int32Array.from(sales, (s) => BASE_DAY + s.day), priceUsd: Float64Array.from(sales, (s) => s.price),
    sqft: new Float64Array(n).fill(1500), beds: new Int8Array(n).fill(3), ptype: new Uint8Array(n), condition: new Uint8Array(n).fill(2),
    deedType: Uint8Array.from(sales, (s) => s.deed), numParcels: Uint16Array.from(sales, (s) => s.numParcels),
  };
  const store: SalesColumns = {
    ...kernel, length: n, pin: (i) => `pin-${sales[i].parcel}`, dateKnown: new Uint8Array(n).fill(1), yearBuilt: new Int16Array(n).fill(1950),
    units: new Uint8Array(n).fill(1), tractIdx: new Uint16Array(n), tracts: ['17031010100'],
  };
  return { kernel, store };
}

/** Per row, the code the kernel reports when every row is a candidate (-1 accepted; undefined: qualified, not selected). */
function kernelCodes(kernel: KernelColumns): Array<number | undefined> {
  const codes: Array<number | undefined> = new Array(kernel.lat.length);
  const k = createKernel(kernel);
  const asOfDay = BASE_DAY + 1_000;
  const subject = { lat: 41.9, lon: -87.7, sqft: null, beds: null, ptype: 0, county: 1, asOfDay, stratumMask: STRATUM.arv };
  k.visitComps(subject, { override: { radiusMi: 1, windowDays: 2_000 } }, (row, code) => (codes[row] = code));
  return codes;
}

/** Codes the kernel may report for a row its screen passes: accepted, or rejected by the GLA / beds band or the MAD trim. */
const AFTER_SCREEN = new Set([undefined, -1, 0, 1, 2]);

describe('armsLengthReasons(c)', () => {
  it('gives every row the arms-length reason the kernel reports for it, on 400 random sales tables', () => {
    const seen = new Set<number>();
    fc.assert(
      fc.property(fc.array(arbSale, { minLength: 1, maxLength: 40 }), (sales) => {
        const { kernel, store } = tables(sales);
        const reasons = armsLengthReasons(store);
        const codes = kernelCodes(kernel);
        reasons.forEach((r, row) => {
          if (r === ARMS_LENGTH) expect(AFTER_SCREEN.has(codes[row]), `row ${row}: kernel code ${codes[row]}`).toBe(true);
          else expect(codes[row], `row ${row}`).toBe(r);
          seen.add(r);
        });
        expect(Array.from(armsLengthMask(store))).toEqual(Array.from(reasons, (r) => (r === ARMS_LENGTH ? 1 : 0)));
      }),
      { numRuns: 400, seed: 20261122 },
    );
    // every screen was exercised, and so was a clean sale
    const names = [...seen].map((r) => (r === ARMS_LENGTH ? 'arms_length' : REJECTION_REASONS[r])).sort();
    expect(names).toEqual(['arms_length', 'duplicate_sale_within_365d', 'multi_parcel_sale', 'non_arms_deed_type', 'price_under_10k', 'quitclaim_deed', 'rapid_resale_within_90d']);
  });

  it('a duplicate (same price ≤ 365 d after) outranks a rapid resale; the earliest sale of a parcel is never a repeat', () => {
    // one parcel: day 0 $200k, day 50 $250k (rapid: 50 d), day 300 $200k (duplicate of day 0, and 250 d after day 50)
    const { store } = tables([0, 50, 300].map((day, i) => ({ parcel: 0, day, price: [200_000, 250_000, 200_000][i], deed: DEED_CODE.warranty, numParcels: 1, north: 0 })));
    expect(Array.from(armsLengthReasons(store), (r) => (r === ARMS_LENGTH ? 'arms_length' : REJECTION_REASONS[r]))).toEqual(['arms_length', 'rapid_resale_within_90d', 'duplicate_sale_within_365d']);
  });
});
