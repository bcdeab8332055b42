// A job values every subject as of one date, the UTC date of its clock when it starts, also when its batches run past
// a UTC midnight: score-all's columns and a listings run's rows. Before, each batch took the date of the clock of the
// thread that valued it, so a run spanning a midnight stored rows of two as-of dates. The scorers here value on a
// context whose clock moves past midnight once the first batch is done.
import { describe, expect, it } from 'vitest';
import type { ScoreColumns } from '../../src/scoring/bulk/columns.js';
import { concatColumns, scoreAll } from '../../src/scoring/bulk/score-all.js';
import { scoreParcelColumns } from '../../src/scoring/bulk/score-columns.js';
import { localScorer, type BatchScorer } from '../../src/scoring/scorer.js';
import { runListingsOnce } from '../../src/listings/run.js';
import { utcDay } from '../../src/store/days.js';
import { TEST_CHAIN, usePointEverywhere } from '../support/scoring-corpus.js';

const fx = usePointEverywhere();
const START = new Date('2026-11-21T23:59:58.000Z');
const NEXT_DAY = new Date('2026-11-22T00:00:03.000Z');

/** A scorer on the fixture's corpus whose context's clock reads START until its first batch is scored, NEXT_DAY after. */
function scorerPastMidnight(): { scorer: BatchScorer; parcelBatches: ScoreColumns[] } {
  let clock = START;
  const local = localScorer({ ...fx.ctx, now: () => clock }, TEST_CHAIN);
  const parcelBatches: ScoreColumns[] = [];
  return {
    parcelBatches,
    scorer: {
      ...local,
      scoreBatch: async (subjects) => {
        const out = await local.scoreBatch(subjects);
        clock = NEXT_DAY;
        return out;
      },
      scoreParcels: async (rows, asOf) => {
        const out = await local.scoreParcels!(rows, asOf);
        parcelBatches.push(out);
        clock = NEXT_DAY;
        return out;
      },
    },
  };
}

const plain = (c: ScoreColumns) => [c.outcome, c.point, c.error, c.arv, c.arvLow, c.arvHigh, c.arvConfidence, c.asIs, ...c.raw].map((a) => Array.from(a));

describe('one as-of date per job', () => {
  it('score-all values every parcel as of the UTC date it started on, whichever day a batch runs on', async () => {
    const limit = 1200;
    const { scorer, parcelBatches } = scorerPastMidnight();
    const run = { limit, batchSize: 200, asOf: utcDay(START) };
    const summary = await scoreAll(fx.store, scorer, run);
    expect(summary.parcels).toBe(limit);
    expect(parcelBatches.length).toBe(6);
    const n = fx.store.readParcels().table.numRows;
    const rows = Int32Array.from({ length: limit }, (_, k) => Math.floor(k * (n / limit)));
    const onStartDay = scoreParcelColumns(rows, fx.ctx, utcDay(START));
    expect(plain(concatColumns(parcelBatches))).toEqual(plain(onStartDay));
    // The dates matter on this sample: valued as of the next day, some parcel's columns differ.
    expect(plain(scoreParcelColumns(rows, fx.ctx, utcDay(NEXT_DAY)))).not.toEqual(plain(onStartDay));
  });

  it('score-all decides its date from the clock when it starts unless told', async () => {
    const seen: string[] = [];
    const local = localScorer(fx.ctx, TEST_CHAIN);
    const spy: BatchScorer = { ...local, scoreParcels: (rows, asOf) => (seen.push(asOf), local.scoreParcels!(rows, asOf)) };
    const before = utcDay(new Date());
    await scoreAll(fx.store, spy, { limit: 30, batchSize: 10 });
    const after = utcDay(new Date());
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(1);
    expect([before, after]).toContain(seen[0]);
  });

  it('a listings run values every listing as of the UTC date it started on', async () => {
    const { scorer } = scorerPastMidnight();
    const { rows } = await runListingsOnce({ store: fx.store, scorer, kind: 'manual', batchSize: 3, now: () => START, alerts: null });
    const valued = rows.filter((r) => r.valuation.as_of !== null);
    expect(valued.length).toBeGreaterThan(3); // more than one batch
    expect(new Set(valued.map((r) => r.valuation.as_of))).toEqual(new Set([utcDay(START)]));
  });
});
