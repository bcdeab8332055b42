// Shared test fixture: the small corpus opened as a store, with the main-thread valuation context over it, opened
// before a file's tests and closed after them.
import { afterAll, beforeAll } from 'vitest';
import type { ServeFallbackConfig } from '../../src/valuation/fallback/serve.js';
import { openStore, type Store } from '../../src/store/store.js';
import { buildValuationContext, type ValuationContext } from '../../src/valuation/value-context.js';
import { calTable } from '../valuation/tier1-fixture.js';
import { CLOSED_OPENDATA_URL, smallCorpusDir } from './corpus.js';

export type ScoringCorpus = { store: Store; ctx: ValuationContext };

/** The comp-source chain of a test service: the open-data portal on a closed loopback port (fails fast). */
export const TEST_CHAIN: ServeFallbackConfig = { opendataBaseUrl: CLOSED_OPENDATA_URL, forceOpendata: false };

/** Registers beforeAll/afterAll hooks; the returned object's fields are set once beforeAll has run. */
export function useScoringCorpus(): ScoringCorpus {
  const fx = {} as ScoringCorpus;
  beforeAll(async () => {
    fx.store = openStore(await smallCorpusDir());
    fx.ctx = buildValuationContext(fx.store);
  }, 300_000);
  afterAll(async () => {
    await fx.store?.close();
  });
  return fx;
}

/** Every segment displayed as a point (hand-set test rows: ratios 0.9–1.12, as tier1-fixture's calTable), so a sample
 * exercises the point economics and scores, not only range/suppressed rows; and prior-sale weights. */
export function pointEverywhere(): ValuationContext['calibration'] {
  const base = calTable('sfh_city', 'point');
  const segments = Object.fromEntries(['sfh_city', 'sfh_suburb', 'mf2_4_city', 'mf2_4_suburb'].map((s) => [s, { ...base.segments.sfh_city, segment: s }]));
  // Hand-set prior-sale weights, Tier 1's and the as-is value's (comps/prior-sale.ts; the default corpus fits about
  // these), so every door's answer for a parcel with an earlier sale carries both moves and the parity suites compare them.
  return {
    ...base, segments,
    priorSale: { weights: { renovated: 0.8, other: 0.25 }, n: { renovated: 1000, other: 1000 } },
    priorSaleAsIs: { weights: { renovated: 0.9, other: 0.85 }, n: { renovated: 1000, other: 1000 } },
  };
}

/** openPointEverywhere() opened before a file's tests and closed after them (fields set once beforeAll has run). */
export function usePointEverywhere(): ScoringCorpus {
  const fx = {} as ScoringCorpus;
  beforeAll(async () => {
    Object.assign(fx, await openPointEverywhere());
  }, 300_000);
  afterAll(async () => {
    await fx.store?.close();
  });
  return fx;
}

/** The small corpus's store with a context valued as of 2026-11-21 13:00 UTC under pointEverywhere(). */
export async function openPointEverywhere(): Promise<ScoringCorpus> {
  const store = openStore(await smallCorpusDir());
  return { store, ctx: buildValuationContext(store, { now: () => new Date('2026-11-21T13:00:00Z'), calibration: pointEverywhere() }) };
}
