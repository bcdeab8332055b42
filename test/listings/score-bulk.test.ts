// The bulk path of score-all (valuation/bulk.ts: kernel batch calls, no artifact; score-all.ts columns) gives the
// same scores as valuing and scoring each parcel one by one through valueProperty, on a sample of the test corpus.
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concatColumns, encodeColumns, encodeResults, parcelRowSubject, percentilesOf, scoreAll, toColumns } from '../../src/listings/score-all.js';
import { localScorer } from '../../src/listings/scorer.js';
import { scoreSubject, scoreSubjectsBulk, type ScoreSubject, type SubjectScore } from '../../src/listings/score-subject.js';
import type { Store } from '../../src/store/store.js';
import type { ValuationContext } from '../../src/valuation/value-context.js';
import { openPointEverywhere } from '../support/scoring-corpus.js';

let store: Store;
let ctx: ValuationContext;
const SAMPLE = 240;

beforeAll(async () => {
  ({ store, ctx } = await openPointEverywhere());
}, 300_000);
afterAll(async () => {
  await store?.close();
});

function sampleRows(): number[] {
  const n = ctx.subjects.parcels!.length;
  return Array.from({ length: SAMPLE }, (_, k) => Math.floor((k * n) / SAMPLE));
}

describe('bulk scoring of parcels', () => {
  it('gives every parcel the same score record as the single-valuation path (inputs_hash aside)', () => {
    // parcels at their as-is value (score-all) and the same parcels offered at a price (listings-style economics)
    const priced = sampleRows().map((row): ScoreSubject => ({ id: `p${row}`, input: { parcelRow: row, price: 150_000 }, priceBasis: 'input' }));
    const subjects = [...sampleRows().map(parcelRowSubject), ...priced];
    const single = subjects.map((s) => scoreSubject(s, ctx));
    const bulk = scoreSubjectsBulk(subjects, ctx);
    expect(bulk.map((b) => b.inputs_hash)).toEqual(bulk.map(() => null));
    expect(bulk).toEqual(single.map((s): SubjectScore => ({ ...s, inputs_hash: null })));
    // the sample is not trivial: it has scored point rows and rows the ladder kept from economics
    expect(single.filter((s) => s.point_actionable && Object.values(s.raw).some((r) => r !== null)).length).toBeGreaterThan(0);
    expect(single.filter((s) => !s.point_actionable).length).toBeGreaterThan(0);
  });

  it('encodes the same Arrow results from batch columns as from the score records', () => {
    const subjects = sampleRows().map(parcelRowSubject);
    const single = subjects.map((s) => scoreSubject(s, ctx));
    const parts = [scoreSubjectsBulk(subjects.slice(0, 100), ctx), scoreSubjectsBulk(subjects.slice(100), ctx)].map(toColumns);
    const viaColumns = tableFromIPC(encodeColumns(single.map((s) => s.id), concatColumns(parts)));
    const viaRecords = tableFromIPC(encodeResults(single));
    expect(viaColumns.schema.names).toEqual(viaRecords.schema.names);
    for (const name of viaRecords.schema.names) expect(Array.from(viaColumns.getChild(name)!.toArray())).toEqual(Array.from(viaRecords.getChild(name)!.toArray()));
    const { deal } = percentilesOf(toColumns(single));
    single.forEach((s, i) => expect(Number.isNaN(deal[i])).toBe(!s.point_actionable || Object.values(s.raw).every((r) => r === null)));
  });

  it('scoreAll stores one row per sampled parcel through the bulk entry', async () => {
    const summary = await scoreAll(store, localScorer(ctx), { limit: 120, batchSize: 50 });
    expect(summary.parcels).toBe(120);
    expect(summary.errors).toBe(0);
    expect(summary.point).toBeGreaterThan(0);
  });
});
