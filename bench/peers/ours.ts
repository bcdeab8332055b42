// "Ours" in the peers bench: the kernel front-ends the service can use (the WASM kernel today; a native front-end
// is one more entry in FRONT_ENDS), and the truth the peers are checked against, taken from the kernel itself.
import { createKernel, nativeAddon } from '../../src/kernel/index.js';
import { kernelParams, type KernelParams } from '../../src/kernel/params.js';
import type { CompsResult, KernelColumns, QueryOptions, Subject, TimeIndexSeries } from '../../src/kernel/types.js';
import type { AppError } from '../../src/errors/app-error.js';
import { HEADER, HEADER_LEN, SUBJECT_LEN } from '../../src/kernel/abi-layout.js';
import { recordLen } from '../../src/kernel/decode.js';

/** What the bench calls on a front-end: one query with rejections, and a batch (no rejections). */
export type OursKernel = {
  queryComps(s: Subject, opts?: QueryOptions): CompsResult;
  batch(subjects: readonly Subject[], opts?: QueryOptions): Array<CompsResult | AppError>;
  batchView(packed: Float64Array): Float64Array;
};
export type FrontEnd = { name: string; create(c: KernelColumns, ti: readonly TimeIndexSeries[], params?: KernelParams): OursKernel | null };

/** Kernel front-ends measured as "ours"; create returns null when that front-end cannot load on this machine. */
export const FRONT_ENDS: FrontEnd[] = [
  { name: 'wasm', create: (c, ti, params) => createKernel(c, ti, { frontEnd: 'wasm', ...(params ? { params } : {}) }) },
  { name: 'native', create: (c, ti, params) => (nativeAddon() ? createKernel(c, ti, { frontEnd: 'native', ...(params ? { params } : {}) }) : null) },
];

/** Step-1 passing candidates as the kernel qualifies them before the MAD trim: every qualified row (max_comps lifted
 * so none is cut) plus the rows the trim rejected. Sorted ascending. */
export function passingRows(k: OursKernel, s: Subject): number[] {
  const r = k.queryComps(s, { maxStep: 1 });
  const rows = r.accepted.map((a) => a.row);
  for (const j of r.rejected) if (j.reason === 'ppsf_outlier_mad') rows.push(j.row);
  return rows.sort((a, b) => a - b);
}

/** A kernel that reports every qualified comp (the truth of the row-set checks; never timed). */
export function truthKernel(c: KernelColumns, ti: readonly TimeIndexSeries[]): OursKernel {
  return createKernel(c, ti, { params: { ...kernelParams(), maxComps: 1e9 } });
}

/** Count, sum and xor of a row set: the per-subject digest the batch joins return. */
export type Digest = { n: number; sum: number; xor: number };
export function digestOf(rows: readonly number[]): Digest {
  let [sum, xor] = [0, 0];
  for (const r of rows) (sum += r, xor ^= r);
  return { n: rows.length, sum, xor };
}

/** Step-1 valuation of the kernel: qualified count, selected count, median of the selected adjusted prices. */
export type Value = { nQualified: number; n: number; value: number | null };

/**
 * Subjects per bulk call: the main thread fans each out over the addon's threads (native-kernel.ts). A call's records
 * (~0.5 KB per subject) are then still in cache when bulkStep1 reads their headers: that loop took 40–67 ms of the
 * county batch in calls of 2,500 against 76–90 ms in calls of 10,000 (2026-12-06).
 */
export const BATCH_CHUNK = 2_500;

/** Ours' result table of the county batch: per subject its qualified and selected counts and value (NaN none; nQualified -1: refused). */
export type Step1Table = { nQualified: Float64Array; n: Float64Array; value: Float64Array };

/**
 * The county step-1 valuation through the bulk entry (batchView): each record's header read into the table, in one
 * walk over the records (recordOffsets' skip rule inline: a second pass for the offsets cost ~4% of this timing).
 */
export function bulkStep1(k: OursKernel, packed: Float64Array, n: number): Step1Table {
  const t: Step1Table = { nQualified: new Float64Array(n), n: new Float64Array(n), value: new Float64Array(n) };
  for (let first = 0; first < n; first += BATCH_CHUNK) {
    const count = Math.min(BATCH_CHUNK, n - first);
    const o = k.batchView(packed.subarray(first * SUBJECT_LEN, (first + count) * SUBJECT_LEN));
    for (let i = first, at = 0; i < first + count; i++) {
      if (o[at + HEADER.error] !== 0) {
        t.nQualified[i] = -1;
        t.value[i] = NaN;
        at += HEADER_LEN;
        continue;
      }
      t.nQualified[i] = o[at + HEADER.nQualified];
      t.n[i] = o[at + HEADER.n];
      t.value[i] = o[at + HEADER.median];
      at += recordLen(o, at);
    }
  }
  return t;
}

/** The table's subjects with at least one qualified comp, as the peers' value checks read them. */
export function valuesOf(t: Step1Table): Map<number, Value> {
  const out = new Map<number, Value>();
  for (let i = 0; i < t.n.length; i++) {
    if (t.nQualified[i] > 0) out.set(i, { nQualified: t.nQualified[i], n: t.n[i], value: Number.isNaN(t.value[i]) ? null : t.value[i] });
  }
  return out;
}
