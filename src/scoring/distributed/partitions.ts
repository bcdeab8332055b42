// The unit of work of a distributed score-all run: a contiguous range of parcel-table rows. Partitioning is a layer
// above the scorer: each partition is scored by score-all's own scoreRows (same batches, same kernel entry).
import type { ScoreColumns } from '../bulk/columns.js';

export type Partition = { part: number; firstRow: number; endRow: number };

/** Rows [0, totalRows) cut into ranges of at most `partitionRows`, in order. */
export function planPartitions(totalRows: number, partitionRows: number): Partition[] {
  if (!Number.isInteger(partitionRows) || partitionRows < 1) throw new RangeError(`partition rows must be a positive integer, not ${partitionRows}`);
  const out: Partition[] = [];
  for (let first = 0, part = 0; first < totalRows; first += partitionRows, part++) out.push({ part, firstRow: first, endRow: Math.min(totalRows, first + partitionRows) });
  return out;
}

/** The rows of a partition, as score-all hands them to the scorer. */
export const rowsOf = (p: Partition): Int32Array => Int32Array.from({ length: p.endRow - p.firstRow }, (_, k) => p.firstRow + k);

/** Rows [a, b) of score columns (views, no copy). */
export function sliceColumns(c: ScoreColumns, a: number, b: number): ScoreColumns {
  return {
    outcome: c.outcome.subarray(a, b), point: c.point.subarray(a, b), error: c.error.subarray(a, b),
    arv: c.arv.subarray(a, b), arvLow: c.arvLow.subarray(a, b), arvHigh: c.arvHigh.subarray(a, b),
    arvConfidence: c.arvConfidence.subarray(a, b), asIs: c.asIs.subarray(a, b), raw: c.raw.map((r) => r.subarray(a, b)),
  };
}
