// Simulated sales for the hedonic tests: a known log-linear price surface on a grid of Chicago tracts.
// ln(price) = alpha_t + 0.6 ln(sqft) + 0.03 beds − 0.5 age/100 + 0.3 (age/100)² + condition + quarter + N(0, noise²).
import type { SalesColumns } from '../../src/store/sales-columns.js';
import type { TractMeta } from '../../src/valuation/hedonic/types.js';
import { rng } from '../../bench/kernel-corpus.js';
import { COUNTY_CODE, DEED_CODE, PTYPE_CODE } from '../../src/store/columns.js';

export const TRUE = { ln_sqft: 0.6, beds: 0.03, age: -0.5, age2: 0.3, cond_dated: 0.15, cond_renovated: 0.35, cond_new: 0.45, quarterStep: 0.01 };
export const START_DAY = 18262; // 2020-01-01
export const END_DAY = 19723; //   2024-01-01 (exclusive)

export { rng };
export const normal = (r: () => number): number => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());

/** A rows×cols grid of tracts 0.02° lat (1.38 mi) × 0.025° lon (1.29 mi) apart; tract i has `perTract(i)` sales. */
export function simulate(opts: { rows: number; cols: number; perTract: (i: number) => number; noise: number; seed: number; muni?: string }) {
  const r = rng(opts.seed);
  const T = opts.rows * opts.cols;
  const meta: TractMeta[] = [];
  const alpha: number[] = [];
  for (let i = 0; i < T; i++) {
    meta.push({ geoid: `17031${String(100000 + i).slice(1)}0`, county: 'cook', muni: opts.muni ?? 'Chicago', lat: 41.8 + Math.floor(i / opts.cols) * 0.02, lon: -87.7 + (i % opts.cols) * 0.025 });
    alpha.push(8 + 0.25 * normal(r));
  }
  const rec: number[][] = [];
  for (let t = 0; t < T; t++) for (let k = 0; k < opts.perTract(t); k++) {
    const sqft = 900 + r() * 2100, beds = 2 + Math.floor(r() * 4), yb = 1900 + Math.floor(r() * 120), cond = Math.floor(r() * 4);
    const day = START_DAY + Math.floor(r() * (END_DAY - START_DAY));
    const year = new Date(day * 86_400_000).getUTCFullYear();
    const age = Math.max(0, year - yb) / 100;
    const q = (year - 2020) * 4 + Math.floor(new Date(day * 86_400_000).getUTCMonth() / 3);
    const lnp = alpha[t] + TRUE.ln_sqft * Math.log(sqft) + TRUE.beds * beds + TRUE.age * age + TRUE.age2 * age * age +
      [0, TRUE.cond_dated, TRUE.cond_renovated, TRUE.cond_new][cond] + TRUE.quarterStep * q + opts.noise * normal(r);
    rec.push([t, sqft, beds, yb, cond, day, Math.exp(lnp)]);
  }
  return { columns: columnsOf(rec, meta), meta, alpha };
}

function columnsOf(rec: number[][], meta: TractMeta[]): SalesColumns {
  const n = rec.length;
  const c: SalesColumns = {
    length: n, pin: (i) => String(10_000_000_000_000 + i),
    parcelIdx: Uint32Array.from(rec.map((_, i) => i)), county: new Uint8Array(n).fill(COUNTY_CODE.cook),
    lat: Float64Array.from(rec.map((x) => meta[x[0]].lat)), lon: Float64Array.from(rec.map((x) => meta[x[0]].lon)),
    saleDay: Int32Array.from(rec.map((x) => x[5])), dateKnown: new Uint8Array(n).fill(1), priceUsd: Float64Array.from(rec.map((x) => x[6])),
    sqft: Float64Array.from(rec.map((x) => x[1])), beds: Int8Array.from(rec.map((x) => x[2])), yearBuilt: Int16Array.from(rec.map((x) => x[3])),
    units: new Uint8Array(n).fill(1), ptype: new Uint8Array(n).fill(PTYPE_CODE.sfh), condition: Uint8Array.from(rec.map((x) => x[4])),
    deedType: new Uint8Array(n).fill(DEED_CODE.warranty), numParcels: new Uint16Array(n).fill(1), tractIdx: Uint16Array.from(rec.map((x) => x[0])),
    tracts: meta.map((m) => m.geoid),
  };
  return c;
}
