import { TEST_CHAIN } from '../support/scoring-corpus.js';
// runListingsOnce: end to end on the generator's test-scale corpus (in-process scorer, same code as the worker task),
// plus a scripted scorer for percentile ranking with ties and for the unscored rows' nulls.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey } from '../../src/listings/dedupe.js';
import { activeListings, listingsPayload } from '../../src/listings/index.js';
import type { ScoredListing } from '../../src/listings/rows.js';
import { runListingsOnce, type ListingsRunResult } from '../../src/listings/run.js';
import { localScorer, localScorerFor } from '../../src/scoring/scorer.js';
import { MODEL_VERSION } from '../../src/registry/versions.js';
import { LAST_RUN_META_KEY } from '../../src/store/store-status.js';
import { openStore, type Store } from '../../src/store/store.js';
import { STRATEGIES } from '../../src/underwriting/types.js';
import { smallCorpusDir } from '../support/corpus.js';
import { openPointEverywhere } from '../support/scoring-corpus.js';
import { listing, pointScore, rangeScore, scriptedScorer } from './support.js';

describe('runListingsOnce on the test-scale corpus', () => {
  let store: Store;
  let first: ListingsRunResult;
  const clock = () => new Date('2026-11-21T13:00:00.000Z');

  beforeAll(async () => {
    store = openStore(await smallCorpusDir());
    first = await runListingsOnce({ store, scorer: localScorerFor(store, TEST_CHAIN), kind: 'manual', now: clock });
  }, 300_000);
  afterAll(async () => {
    await store?.close();
  });

  it('keeps at most 200 active rows, one per address, and stores the dropped duplicates as non-active', () => {
    const active = activeListings(store);
    expect(active.length).toBeGreaterThan(0);
    expect(active.length).toBeLessThanOrEqual(200);
    expect(new Set(active.map(addressKey)).size).toBe(active.length);
    expect(first.duplicates).toBeGreaterThan(0); // the generator lists some addresses twice
    const dups = (store.getListings() as ScoredListing[]).filter((r) => r.status === 'duplicate');
    const activeIds = new Set(active.map((r) => r.listing_id));
    expect(dups.length).toBe(first.duplicates);
    for (const d of dups) expect(activeIds.has(d.duplicate_of as string)).toBe(true);
    expect(store.listingsSummary(MODEL_VERSION)).toEqual({ active: active.length, staleModelRows: 0 });
  });

  it('stamps every row with model_version and a deal_score that is null or 0-100; unscored rows carry no scores', () => {
    for (const r of activeListings(store)) {
      expect(r.model_version === MODEL_VERSION || r.provenance.error !== null).toBe(true);
      if (r.deal_score !== null) expect(r.deal_score).toBeGreaterThanOrEqual(0);
      if (r.deal_score !== null) expect(r.deal_score).toBeLessThanOrEqual(100);
      if (!r.valuation.point_actionable) {
        expect(r.deal_score).toBeNull();
        expect(r.investor_targets).toBeNull();
        expect(r.valuation.arv_value).toBeNull();
        for (const s of STRATEGIES) expect(r.percentiles[s]).toBeNull();
        expect(r.reasons[0]).toMatch(/^unscored|^valuation failed/);
      }
    }
  });

  it('writes last_run and counts only listings never seen before as new', async () => {
    expect(store.getMeta(LAST_RUN_META_KEY)).toEqual({ kind: 'manual', finished: '2026-11-21T13:00:00.000Z', found: first.last_run.found, new_count: first.active });
    const second = await runListingsOnce({ store, scorer: localScorerFor(store, TEST_CHAIN), kind: 'daily', now: clock });
    expect(second.last_run).toMatchObject({ kind: 'daily', new_count: 0 });
    expect(listingsPayload(store, clock()).count).toBe(second.active);
  });
});

describe('runListingsOnce with point valuations (every segment displayed as a point)', () => {
  let fx: Awaited<ReturnType<typeof openPointEverywhere>>;
  let rows: ScoredListing[];
  beforeAll(async () => {
    fx = await openPointEverywhere();
    rows = (await runListingsOnce({ store: fx.store, scorer: localScorer(fx.ctx, TEST_CHAIN), kind: 'manual', now: () => new Date('2026-11-21T13:00:00.000Z') })).rows;
  }, 300_000);
  afterAll(async () => {
    await fx?.store.close();
  });

  it('stores, per strategy, the gate checks a point row failed ([] where the gates passed, null where none ran)', () => {
    const points = rows.filter((r) => r.valuation.point_actionable);
    expect(points.length).toBeGreaterThan(0);
    let gatedOut = 0;
    for (const r of points) {
      for (const s of STRATEGIES) {
        const f = r.strategy_gate_failures![s];
        if (r.strategy_null_reasons[s] === 'gated_out') {
          gatedOut++;
          expect(f!.length).toBeGreaterThan(0);
          for (const c of f!) expect(c.value === null || (c.direction === 'min' ? c.value < c.threshold : c.value > c.threshold)).toBe(true);
        } else if (r.percentiles[s] !== null) expect(f).toEqual([]);
      }
    }
    expect(gatedOut).toBeGreaterThan(0);
    for (const r of rows.filter((x) => !x.valuation.point_actionable)) for (const s of STRATEGIES) expect(r.strategy_gate_failures![s]).toBeNull();
  });

  it('scores no row whose scoring strategy shows a negative NOI (house_hack gates NOI too)', () => {
    for (const r of rows.filter((x) => x.deal_score !== null)) {
      const noi = r.investor_targets?.noi ?? null;
      if (noi !== null) expect(noi).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('runListingsOnce ranking', () => {
  it('ranks per-strategy percentiles across the run with ties sharing a percentile and unscored rows null', async () => {
    const store = openStore(mkdtempSync(join(tmpdir(), 'avm-listings-')));
    try {
      await store.putListings([listing('L1'), listing('L2'), listing('L3'), listing('L4'), listing('L5', { status: 'sold' })]);
      // flip raw: L1 0.9, L2 0.5, L3 0.5 (tie), L4 range-only (never ranked).
      const raws: Record<string, number> = { L1: 0.9, L2: 0.5, L3: 0.5 };
      const scorer = scriptedScorer((id) => (id === 'L4' ? rangeScore(id) : pointScore(id, { flip: raws[id] })));
      const r = await runListingsOnce({ store, scorer, kind: 'manual', batchSize: 2 });
      expect(scorer.batches).toEqual([2, 2]); // 4 active rows, one task per batch of 2; the sold row is not scored
      const by = Object.fromEntries(r.rows.map((x) => [x.listing_id, x]));
      // Mid-rank PR = 100·(below + equal/2)/N over N = 3 scored rows: L1 100·(2+0.5)/3, L2 = L3 = 100·(0+1)/3.
      expect(by.L1.percentiles.flip).toBeCloseTo(250 / 3, 10);
      expect(by.L2.percentiles.flip).toBeCloseTo(100 / 3, 10);
      expect(by.L3.percentiles.flip).toBe(by.L2.percentiles.flip);
      expect(by.L1.deal_score).toBeCloseTo(250 / 3, 10);
      expect(by.L4.percentiles).toEqual({ flip: null, brrrr: null, hold: null, house_hack: null });
      expect(by.L4.deal_score).toBeNull();
      expect(r.last_run.found).toBe(4);
    } finally {
      await store.close();
    }
  });
});
