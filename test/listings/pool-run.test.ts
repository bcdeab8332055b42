import { TEST_CHAIN } from '../support/scoring-corpus.js';
// The listings run through the worker pool (one task per batch, the `scoreSubjects` task module) gives exactly the
// rows the in-process scorer gives. Needs the compiled worker: run `npm run build` first (npm test does).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runListingsOnce } from '../../src/listings/run.js';
import { localScorerFor, poolScorer, type BatchScorer } from '../../src/scoring/scorer.js';
import { openStore, type Store } from '../../src/store/store.js';
import { smallCorpusDir, testConfig } from '../support/corpus.js';

let store: Store;
let pool: BatchScorer;
beforeAll(async () => {
  const dir = await smallCorpusDir();
  store = openStore(dir);
  pool = await poolScorer(store, testConfig(dir));
}, 300_000);
afterAll(async () => {
  await pool?.close();
  await store?.close();
});

describe('runListingsOnce through the worker pool', () => {
  it('stores the same scored rows as the in-process scorer', async () => {
    const clock = () => new Date('2026-11-21T13:00:00.000Z');
    const viaPool = await runListingsOnce({ store, scorer: pool, kind: 'manual', now: clock });
    const local = await runListingsOnce({ store, scorer: localScorerFor(store, TEST_CHAIN), kind: 'manual', now: clock });
    const strip = (r: (typeof local.rows)[number]) => ({ id: r.listing_id, v: r.valuation, p: r.percentiles, d: r.deal_score, reasons: r.reasons });
    expect(viaPool.rows.map(strip)).toEqual(local.rows.map(strip));
    expect(viaPool.errors).toBe(0);
  });
});
