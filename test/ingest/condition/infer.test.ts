// Condition inference on a constructed sales table: a known price surface (tract level, size, quarter) with known
// condition effects and small noise, a renovation resale pair, a rapid resale, a feed-given condition, a new build and
// flag-only rows. Checks the rule per source, the precedence, and that probabilities are probabilities.
import { describe, expect, it } from 'vitest';
import { inferConditions } from '../../../src/ingest/condition/infer.js';
import type { ConditionInput } from '../../../src/ingest/condition/types.js';
import { UNKNOWN_U8 } from '../../../src/ingest/loaders/ccao-chars.js';
import { CONDITION_DERIVE } from '../../../src/ingest/loaders/ccao-sales.js';
import { CONDITION_CODE as C, CONDITION_SOURCE_CODE as S, COUNTY_CODE, DEED_CODE, PTYPE_CODE } from '../../../src/store/columns.js';
import { dayOfIso } from '../../../src/store/days.js';

type Row = { parcel: number; day: number; price: number; sqft: number; yearBuilt: number; tract: number; feed?: number; deed?: number; renovation?: number; repairCnd?: number; truth: number };

/** Deterministic pseudo-random numbers (LCG) so the table is the same on every run. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}
const normal = (u: () => number): number => Math.sqrt(-2 * Math.log(u() + 1e-12)) * Math.cos(2 * Math.PI * u());

const DAY0 = dayOfIso('2022-01-01');
/** Log price offsets of each class against a renovated house (dated: kitchen and bath; distressed: a gut job). */
const COND_LOG = { [C.distressed]: -0.7, [C.dated]: -0.2, [C.renovated]: 0 } as Record<number, number>;

function table(): { rows: Row[]; flipBuy: number; flipSell: number; rapid: number; feedRow: number; newRow: number; flagRow: number; bareNonArms: number } {
  const u = lcg(11);
  const rows: Row[] = [];
  const classes = [C.distressed, C.dated, C.dated, C.dated, C.renovated, C.renovated, C.renovated, C.dated, C.renovated, C.dated];
  for (let p = 0; p < 600; p++) {
    const tract = p % 4;
    const sqft = 900 + Math.round(u() * 1800);
    const day = DAY0 + Math.floor(u() * 1400);
    const cond = classes[p % classes.length];
    const ln = 12 + 0.3 * tract + 0.8 * Math.log(sqft / 1400) + 0.0001 * (day - DAY0) + COND_LOG[cond] + 0.05 * normal(u);
    rows.push({ parcel: p, day, price: Math.round(Math.exp(ln)), sqft, yearBuilt: 1950, tract, truth: cond });
  }
  const add = (r: Row): number => rows.push(r) - 1;
  // A renovation pair: bought distressed, resold renovated 200 days later.
  const base = (day: number): number => Math.exp(12 + 0.3 + 0.0001 * (day - DAY0));
  const flipBuy = add({ parcel: 700, day: DAY0 + 300, price: Math.round(base(DAY0 + 300) * Math.exp(-0.7)), sqft: 1400, yearBuilt: 1950, tract: 1, truth: C.distressed });
  const flipSell = add({ parcel: 700, day: DAY0 + 500, price: Math.round(base(DAY0 + 500)), sqft: 1400, yearBuilt: 1950, tract: 1, truth: C.renovated });
  // The same uplift 60 days later is a rapid resale (not arms-length): no pair.
  add({ parcel: 701, day: DAY0 + 300, price: Math.round(base(DAY0 + 300) * Math.exp(-0.7)), sqft: 1400, yearBuilt: 1950, tract: 1, truth: C.distressed });
  const rapid = add({ parcel: 701, day: DAY0 + 360, price: Math.round(base(DAY0 + 360)), sqft: 1400, yearBuilt: 1950, tract: 1, truth: C.renovated });
  // The feed says renovated although the price is a distressed one: the feed wins.
  const feedRow = add({ parcel: 702, day: DAY0 + 400, price: Math.round(base(DAY0 + 400) * Math.exp(-0.7)), sqft: 1400, yearBuilt: 1950, tract: 1, feed: C.renovated, truth: C.renovated });
  const newRow = add({ parcel: 703, day: dayOfIso('2024-06-01'), price: Math.round(base(900) * 1.08), sqft: 1400, yearBuilt: 2023, tract: 1, truth: C.new });
  // Not arms-length (quitclaim) with a renovation flag: the flag; without one: unknown.
  const flagRow = add({ parcel: 704, day: DAY0 + 450, price: 50_000, sqft: 1400, yearBuilt: 1950, tract: 1, deed: DEED_CODE.quitclaim, renovation: 1, truth: C.renovated });
  const bareNonArms = add({ parcel: 705, day: DAY0 + 450, price: 50_000, sqft: 1400, yearBuilt: 1950, tract: 1, deed: DEED_CODE.quitclaim, truth: C.dated });
  return { rows, flipBuy, flipSell, rapid, feedRow, newRow, flagRow, bareNonArms };
}

function inputOf(rows: readonly Row[]): ConditionInput {
  const n = rows.length;
  const col = <T extends { [i: number]: number }>(make: (n: number) => T, f: (r: Row) => number): T => {
    const a = make(n);
    rows.forEach((r, i) => (a[i] = f(r)));
    return a;
  };
  return {
    length: n,
    parcelIdx: col((k) => new Uint32Array(k), (r) => r.parcel), county: new Uint8Array(n).fill(COUNTY_CODE.cook),
    lat: col((k) => new Float64Array(k), (r) => 41.8 + 0.1 * r.tract), lon: new Float64Array(n).fill(-87.7), saleDay: col((k) => new Int32Array(k), (r) => r.day),
    priceUsd: col((k) => new Float64Array(k), (r) => r.price), sqft: col((k) => new Float64Array(k), (r) => r.sqft), beds: new Int8Array(n).fill(3),
    yearBuilt: col((k) => new Int16Array(k), (r) => r.yearBuilt), units: new Uint8Array(n).fill(1), ptype: new Uint8Array(n).fill(PTYPE_CODE.sfh),
    tractIdx: col((k) => new Uint16Array(k), (r) => r.tract), deedType: col((k) => new Uint8Array(k), (r) => r.deed ?? DEED_CODE.warranty), numParcels: new Uint16Array(n).fill(1),
    condition: col((k) => new Uint8Array(k), (r) => r.feed ?? CONDITION_DERIVE),
    renovation: col((k) => new Uint8Array(k), (r) => r.renovation ?? UNKNOWN_U8), repairCnd: col((k) => new Uint8Array(k), (r) => r.repairCnd ?? UNKNOWN_U8),
  };
}

describe('condition inference (constructed table)', () => {
  const t = table();
  const { estimate: e, summary } = inferConditions(inputOf(t.rows));

  it('a resale soon after a cheap purchase at a large uplift: later leg renovated, earlier leg needing work, both resale_leg', () => {
    expect(e.source[t.flipSell]).toBe(S.resale_leg);
    expect(e.condition[t.flipSell]).toBe(C.renovated);
    expect(e.source[t.flipBuy]).toBe(S.resale_leg);
    expect([C.distressed, C.dated]).toContain(e.condition[t.flipBuy]);
    expect(e.prob[t.flipSell]).toBeGreaterThan(0.5);
    expect(summary.resalePairs).toBeGreaterThanOrEqual(1);
  });

  it('a resale within 90 days is a rapid resale, not a renovation leg', () => {
    expect(e.source[t.rapid]).not.toBe(S.resale_leg);
  });

  it('a non-blank feed condition wins, with probability 1', () => {
    expect(e.condition[t.feedRow]).toBe(C.renovated);
    expect(e.source[t.feedRow]).toBe(S.feed);
    expect(e.prob[t.feedRow]).toBe(1);
  });

  it('a building sold within two years of being built is new by its year built', () => {
    expect(e.condition[t.newRow]).toBe(C.new);
    expect(e.source[t.newRow]).toBe(S.year_built);
  });

  it('a sale without a market price keeps a set flag (source flags) and is unknown without one', () => {
    expect(e.condition[t.flagRow]).toBe(C.renovated);
    expect(e.source[t.flagRow]).toBe(S.flags);
    expect(e.condition[t.bareNonArms]).toBe(C.unknown);
    expect(e.source[t.bareNonArms]).toBe(S.unknown);
    expect(Number.isNaN(e.prob[t.bareNonArms])).toBe(true);
  });

  it('every probability is in [0, 1]; NaN only for unknown', () => {
    for (let i = 0; i < t.rows.length; i++) {
      if (e.source[i] === S.unknown) expect(Number.isNaN(e.prob[i])).toBe(true);
      else {
        expect(e.prob[i]).toBeGreaterThanOrEqual(0);
        expect(e.prob[i]).toBeLessThanOrEqual(1);
      }
    }
  });

  it('the hedonic position separates the classes of the surface (distressed 0.7, dated 0.2 log below renovated; noise 0.05)', () => {
    let right = 0, n = 0;
    for (let i = 0; i < 600; i++) {
      if (e.source[i] !== S.hedonic) continue;
      n++;
      if (e.condition[i] === t.rows[i].truth) right++;
    }
    expect(n).toBeGreaterThan(500);
    expect(right / n).toBeGreaterThan(0.9);
  });
});
