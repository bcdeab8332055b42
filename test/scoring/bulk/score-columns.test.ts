// score-all's column scorer (score-columns.ts: bulk decisions, economics only for points, no score records) writes
// the same columns as valuing and scoring each parcel one by one through valueProperty, on a sample of the test
// corpus with every segment displayed as a point (so the sample has underwritten rows); and underwrites each point
// from the same figures as the full valuation's (at their as-is price this corpus's deals stay gated, so the
// figures are compared directly).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableFromIPC } from 'apache-arrow';
import { concatColumns, encodeColumns, encodeResults, parcelRowSubject, percentilesOf, scoreAll, toColumns } from '../../../src/scoring/bulk/score-all.js';
import type { ScoreColumns } from '../../../src/scoring/bulk/columns.js';
import { localScorer } from '../../../src/scoring/scorer.js';
import { scoreParcelColumns } from '../../../src/scoring/bulk/score-columns.js';
import { isChicagoTract, scoreSubject, underwriteInputFrom, underwriteInputOf } from '../../../src/scoring/score-subject.js';
import { bulkUnderwriteFigures } from '../../../src/valuation/economics/bulk-economics.js';
import { decideBulk } from '../../../src/valuation/bulk.js';
import { valueProperty, type ValueInput } from '../../../src/valuation/value.js';
import type { Store } from '../../../src/store/store.js';
import type { ValuationContext } from '../../../src/valuation/value-context.js';
import { utcDay } from '../../../src/store/days.js';
import { openPointEverywhere, TEST_CHAIN } from '../../support/scoring-corpus.js';

let store: Store;
let ctx: ValuationContext;
const SAMPLE = 1200;
/** The date the single valuations take (the context's clock): the bulk columns are valued as of it. */
const asOf = (): string => utcDay(ctx.now());

beforeAll(async () => {
  ({ store, ctx } = await openPointEverywhere());
}, 300_000);
afterAll(async () => {
  await store?.close();
});

const plain = (c: ScoreColumns) => ({
  outcome: Array.from(c.outcome), point: Array.from(c.point), error: Array.from(c.error), arv: Array.from(c.arv), arvLow: Array.from(c.arvLow),
  arvHigh: Array.from(c.arvHigh), arvConfidence: Array.from(c.arvConfidence), asIs: Array.from(c.asIs), raw: c.raw.map((r) => Array.from(r)),
});

describe('scoreParcelColumns', () => {
  it('writes, for every sampled parcel, the columns of the single-valuation score record', () => {
    const n = ctx.subjects.parcels!.length;
    const rows = Int32Array.from({ length: SAMPLE }, (_, k) => Math.floor((k * n) / SAMPLE));
    const single = toColumns(Array.from(rows, (r) => scoreSubject(parcelRowSubject(r), ctx)));
    // in two batches, as the pool hands them out
    const bulk = [scoreParcelColumns(rows.subarray(0, 500), ctx, asOf()), scoreParcelColumns(rows.subarray(500), ctx, asOf())];
    const joined = plain(single);
    expect(plain(bulk[0])).toEqual(Object.fromEntries(Object.entries(joined).map(([k, v]) => [k, k === 'raw' ? (v as number[][]).map((r) => r.slice(0, 500)) : (v as number[]).slice(0, 500)])));
    expect(plain(bulk[1])).toEqual(Object.fromEntries(Object.entries(joined).map(([k, v]) => [k, k === 'raw' ? (v as number[][]).map((r) => r.slice(500)) : (v as number[]).slice(500)])));
    // the sample is not trivial: point rows (underwritten) and rows the ladder kept from economics
    expect(joined.point.filter((p) => p === 1).length).toBeGreaterThan(0);
    expect(joined.point.filter((p) => p === 0).length).toBeGreaterThan(0);
    expect(new Set(joined.outcome).size).toBeGreaterThan(1);
  });

  it('underwrites a point row from the same figures as the full valuation (rent, tax, rehab, as-is price)', () => {
    const n = ctx.subjects.parcels!.length;
    const inputs = Array.from({ length: SAMPLE }, (_, k): ValueInput => ({ parcelRow: Math.floor((k * n) / SAMPLE) }));
    let points = 0;
    decideBulk(inputs, ctx, (k, p) => {
      if (p instanceof Error || !p.decision.pointActionable) return;
      points++;
      const isChicago = isChicagoTract(ctx, p.r.subject.tract_geoid);
      const f = bulkUnderwriteFigures(p, inputs[k], ctx);
      const v = valueProperty(inputs[k], ctx);
      expect(underwriteInputFrom(f, isChicago, f.asIsUsd)).toEqual(underwriteInputOf(v, isChicago, v.value_as_is?.value ?? null));
    });
    expect(points).toBeGreaterThan(0);
  });

  it('marks a row the valuation refuses as an error with every number null, in place', () => {
    const n = ctx.subjects.parcels!.length;
    const c = scoreParcelColumns(Int32Array.from([0, n + 5, 1]), ctx, asOf());
    expect(Array.from(c.error)).toEqual([0, 1, 0]);
    expect(c.outcome[1]).toBe(255);
    expect(c.point[1]).toBe(0);
    for (const col of [c.arv, c.arvLow, c.arvHigh, c.arvConfidence, c.asIs, ...c.raw]) expect(Number.isNaN(col[1])).toBe(true);
    expect(c.outcome[0]).not.toBe(255);
  });
});

describe('score-all results', () => {
  const sampleRows = (k: number): Int32Array => {
    const n = ctx.subjects.parcels!.length;
    return Int32Array.from({ length: k }, (_, i) => Math.floor((i * n) / k));
  };

  it('encodes the same Arrow results from batch columns as from the score records', () => {
    const rows = sampleRows(240);
    const single = Array.from(rows, (r) => scoreSubject(parcelRowSubject(r), ctx));
    const parts = [scoreParcelColumns(rows.subarray(0, 100), ctx, asOf()), scoreParcelColumns(rows.subarray(100), ctx, asOf())];
    const viaColumns = tableFromIPC(encodeColumns(single.map((s) => s.id), concatColumns(parts)));
    const viaRecords = tableFromIPC(encodeResults(single));
    expect(viaColumns.schema.names).toEqual(viaRecords.schema.names);
    for (const name of viaRecords.schema.names) expect(Array.from(viaColumns.getChild(name)!.toArray())).toEqual(Array.from(viaRecords.getChild(name)!.toArray()));
    const { deal } = percentilesOf(toColumns(single));
    single.forEach((s, i) => expect(Number.isNaN(deal[i])).toBe(!s.point_actionable || Object.values(s.raw).every((r) => r === null)));
  });

  it('scoreAll hands each batch only its own rows, not a view of the whole run', async () => {
    const local = localScorer(ctx, TEST_CHAIN);
    const sent: Array<{ length: number; bufferBytes: number; offset: number }> = [];
    const spy = { ...local, scoreParcels: (rows: Int32Array, day: string) => (sent.push({ length: rows.length, bufferBytes: rows.buffer.byteLength, offset: rows.byteOffset }), local.scoreParcels!(rows, day)) };
    await scoreAll(store, spy, { limit: 120, batchSize: 50 });
    expect(sent.map((s) => s.length)).toEqual([50, 50, 20]);
    // A batch that crosses to a worker is copied (or moved) with its buffer: it must hold exactly its rows.
    for (const s of sent) expect({ bufferBytes: s.bufferBytes, offset: s.offset }).toEqual({ bufferBytes: s.length * 4, offset: 0 });
  });

  it('scoreAll stores one row per sampled parcel through the bulk entry', async () => {
    const summary = await scoreAll(store, localScorer(ctx, TEST_CHAIN), { limit: 120, batchSize: 50 });
    expect(summary.parcels).toBe(120);
    expect(summary.errors).toBe(0);
    expect(summary.point).toBeGreaterThan(0);
  });
});
