// Shared test fixture: the small corpus opened as a store, with the main-thread valuation context over it, opened
// before a file's tests and closed after them.
import { afterAll, beforeAll } from 'vitest';
import { scoringContext } from '../../src/listings/context.js';
import { openStore, type Store } from '../../src/store/store.js';
import type { ValuationContext } from '../../src/valuation/value-context.js';
import { smallCorpusDir } from './corpus.js';

export type ScoringCorpus = { store: Store; ctx: ValuationContext };

/** Registers beforeAll/afterAll hooks; the returned object's fields are set once beforeAll has run. */
export function useScoringCorpus(): ScoringCorpus {
  const fx = {} as ScoringCorpus;
  beforeAll(async () => {
    fx.store = openStore(await smallCorpusDir());
    fx.ctx = scoringContext(fx.store);
  }, 300_000);
  afterAll(async () => {
    await fx.store?.close();
  });
  return fx;
}
