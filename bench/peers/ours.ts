// "Ours" in the peers bench: the kernel front-ends the service can use (the WASM kernel today; a native front-end
// is one more entry in FRONT_ENDS), and the truth the peers are checked against, taken from the kernel itself.
import { createKernel, nativeAddon } from '../../src/kernel/index.js';
import { kernelParams, type KernelParams } from '../../src/kernel/params.js';
import type { CompsResult, KernelColumns, QueryOptions, Subject, TimeIndexSeries } from '../../src/kernel/types.js';
import type { AppError } from '../../src/errors/app-error.js';

/** What the bench calls on a front-end: one query with rejections, and a batch (no rejections). */
export type OursKernel = {
  queryComps(s: Subject, opts?: QueryOptions): CompsResult;
  batch(subjects: readonly Subject[], opts?: QueryOptions): Array<CompsResult | AppError>;
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
export function valueOf(r: CompsResult | AppError): Value | null {
  return 'stats' in r ? { nQualified: r.nQualified, n: r.stats.n, value: r.stats.median } : null;
}
