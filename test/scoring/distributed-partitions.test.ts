// The pieces of a distributed run that need no database: partitions tile the rows exactly once, and a partition's
// score columns survive the Arrow round trip bit for bit (NaN, score-all's null, included).
import { describe, expect, it } from 'vitest';
import { emptyColumns } from '../../src/scoring/bulk/columns.js';
import { planPartitions, rowsOf, sliceColumns } from '../../src/scoring/distributed/partitions.js';
import { decodeRawPartition, encodeRawPartition } from '../../src/scoring/distributed/result-files.js';

describe('planPartitions', () => {
  it.each([[0, 5], [1, 5], [10, 5], [11, 5], [249_220, 20_000]])('%i rows in partitions of %i: every row once, in order', (total, size) => {
    const parts = planPartitions(total, size);
    const rows = parts.flatMap((p) => Array.from(rowsOf(p)));
    expect(rows).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(parts.every((p) => p.endRow - p.firstRow <= size && p.endRow > p.firstRow)).toBe(true);
    expect(parts.map((p) => p.part)).toEqual(parts.map((_, i) => i));
  });

  it('refuses a partition size that is not a positive integer', () => {
    expect(() => planPartitions(10, 0)).toThrow(RangeError);
    expect(() => planPartitions(10, 2.5)).toThrow(RangeError);
  });
});

describe('raw partition files', () => {
  it('decode(encode(columns)) gives the same bytes, NaN included', () => {
    const c = emptyColumns(6);
    c.outcome.set([0, 1, 255, 4, 2, 3]);
    c.point.set([1, 0, 0, 0, 0, 0]);
    c.error.set([0, 0, 1, 0, 0, 0]);
    c.arv.set([312_000.5, NaN, NaN, NaN, NaN, NaN]);
    c.arvLow.set([290_000, 180_000, NaN, NaN, 95_000, 101_000]);
    c.raw[2].set([0.25, NaN, NaN, NaN, NaN, NaN]);
    const back = decodeRawPartition(encodeRawPartition(c));
    const bytes = (x: ArrayBufferView) => Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString('hex');
    for (const k of ['outcome', 'point', 'error', 'arv', 'arvLow', 'arvHigh', 'arvConfidence', 'asIs'] as const) expect(bytes(back[k])).toBe(bytes(c[k]));
    expect(back.raw.map(bytes)).toEqual(c.raw.map(bytes));
    expect(Array.from(sliceColumns(back, 1, 3).arvLow)).toEqual([180_000, NaN]);
  });
});
