// Decodes the kernel's output records (layout in abi-layout.ts) into CompsResult objects, and encodes subjects.
import { AppError } from '../errors/app-error.js';
import { REJECTION_REASONS } from '../store/columns.js';
import { COMP_LEN, HEADER, HEADER_LEN, KERNEL_BAD_CONFORMAL_INPUT, KERNEL_BAD_SUBJECT, KERNEL_ERRORS, REJECT_LEN, SUBJECT_LEN } from './abi-layout.js';
import type { CompsResult, QueryOptions, Subject } from './types.js';
import type { Kernel } from './kernel.js';

const nullIfNaN = (v: number): number | null => (Number.isNaN(v) ? null : v);

/** The AppError for a kernel error code: a refused subject or calibration sample is the caller's input
 * (validation_failed); anything else is the kernel's (kernel_error). */
export function kernelError(code: number, what: string): AppError {
  const name = KERNEL_ERRORS[code] ?? `code_${code}`;
  if (code === KERNEL_BAD_SUBJECT || code === KERNEL_BAD_CONFORMAL_INPUT) {
    return new AppError('validation_failed', `${what}: input out of range (${name})`, { details: { kernelCode: code, kernel: name } });
  }
  return new AppError('kernel_error', `${what}: kernel error ${name}`, { details: { kernelCode: code, kernel: name } });
}

/** Writes one subject into `out` at `offset` (SUBJECT_LEN slots). */
export function encodeSubject(s: Subject, opts: QueryOptions, out: Float64Array, offset: number): void {
  encodeSubjectAs(s, s.stratumMask, opts, out, offset);
}

/** encodeSubject with the stratum given apart (callers holding a subject without one need not copy it to add it). */
export function encodeSubjectAs(s: Omit<Subject, 'stratumMask'>, stratumMask: number, opts: QueryOptions, out: Float64Array, offset: number): void {
  out[offset] = s.lat;
  out[offset + 1] = s.lon;
  out[offset + 2] = s.sqft ?? NaN;
  out[offset + 3] = s.beds ?? -1;
  out[offset + 4] = s.ptype;
  out[offset + 5] = s.county;
  out[offset + 6] = s.asOfDay;
  out[offset + 8] = s.excludeParcelIdx ?? -1;
  writeQuery(out, offset, stratumMask, opts);
}

/** The query slots of a packed subject: stratum mask, highest ladder step, override radius and window. */
function writeQuery(out: Float64Array, offset: number, stratumMask: number, opts: QueryOptions): void {
  out[offset + 7] = stratumMask;
  out[offset + 9] = opts.maxStep ?? 3;
  out[offset + 10] = opts.override ? opts.override.radiusMi : NaN;
  out[offset + 11] = opts.override ? opts.override.windowDays : NaN;
}

export function encodeSubjects(subjects: readonly Subject[], opts: QueryOptions = {}): Float64Array {
  const out = new Float64Array(subjects.length * SUBJECT_LEN);
  subjects.forEach((s, k) => encodeSubject(s, opts, out, k * SUBJECT_LEN));
  return out;
}

/** Decodes one record at `at`; returns the result and the offset of the next record. Throws on an error record. */
export function decodeOne(o: Float64Array, at: number): { result: CompsResult; next: number } {
  if (o[at + HEADER.error] !== 0) throw kernelError(o[at + HEADER.error], 'comp query');
  const nSel = o[at + HEADER.nSelected], nRej = o[at + HEADER.nRejected];
  let k = at + HEADER_LEN;
  // Both lists made at their final length (a dense subject's hundreds of rejections pushed one by one regrew theirs).
  const accepted: CompsResult['accepted'] = new Array(nSel);
  for (let i = 0; i < nSel; i++, k += COMP_LEN) {
    accepted[i] = { row: o[k], distMi: o[k + 1], indexFactor: o[k + 2], indexedPrice: o[k + 3], glaAdj: nullIfNaN(o[k + 4]), adjustedPrice: o[k + 5], similarity: o[k + 6] };
  }
  const rejected: CompsResult['rejected'] = new Array(nRej);
  for (let i = 0; i < nRej; i++, k += REJECT_LEN) rejected[i] = { row: o[k], reason: REJECTION_REASONS[o[k + 1]] };
  const stats = { n: o[at + HEADER.n], median: nullIfNaN(o[at + HEADER.median]), q25: nullIfNaN(o[at + HEADER.q25]), q75: nullIfNaN(o[at + HEADER.q75]), fsd: nullIfNaN(o[at + HEADER.fsd]) };
  return { result: { step: o[at + HEADER.step], nQualified: o[at + HEADER.nQualified], accepted, rejected, stats }, next: k };
}

/** The rows of the record at `at` as decodeOne lists them: accepted (reason -1), then rejected with reason code. */
export function visitOne(o: Float64Array, at: number, visit: (row: number, reasonCode: number) => void): void {
  if (o[at + HEADER.error] !== 0) throw kernelError(o[at + HEADER.error], 'comp query');
  const nSel = o[at + HEADER.nSelected], nRej = o[at + HEADER.nRejected];
  let k = at + HEADER_LEN;
  for (let i = 0; i < nSel; i++, k += COMP_LEN) visit(o[k], -1);
  for (let i = 0; i < nRej; i++, k += REJECT_LEN) visit(o[k], o[k + 1]);
}

/** Size in f64 slots of the record at `at` (to skip it). */
export function recordLen(o: Float64Array, at: number): number {
  return HEADER_LEN + o[at + HEADER.nSelected] * COMP_LEN + o[at + HEADER.nRejected] * REJECT_LEN;
}

/** Decodes a whole batch output of `n` records; a subject the kernel refused becomes its AppError in place. */
export function decodeBatch(o: Float64Array, n: number): Array<CompsResult | AppError> {
  const out: Array<CompsResult | AppError> = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    if (o[at + HEADER.error] !== 0) {
      out.push(kernelError(o[at + HEADER.error], `batch subject ${i}`));
      at += HEADER_LEN;
      continue;
    }
    const { result, next } = decodeOne(o, at);
    out.push(result);
    at = next;
  }
  return out;
}

/** Start offset of each of the `n` records of a batch output (records are variable-length), to decode them lazily. */
export function recordOffsets(o: Float64Array, n: number): Int32Array {
  const at = new Int32Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    at[i] = k;
    k += o[k + HEADER.error] !== 0 ? HEADER_LEN : recordLen(o, k);
  }
  return at;
}

/** A batch record's header without its comps: what a summary-only caller (the bulk as-is steps) reads. */
export type RecordSummary = { error: number; nSelected: number; median: number | null; q25: number | null; q75: number | null };

export function decodeSummary(o: Float64Array, at: number): RecordSummary {
  return { error: o[at + HEADER.error], nSelected: o[at + HEADER.nSelected], median: nullIfNaN(o[at + HEADER.median]), q25: nullIfNaN(o[at + HEADER.q25]), q75: nullIfNaN(o[at + HEADER.q75]) };
}

/** Snapshot rows of the selected comps of the record at `at`, best first. */
export function selectedRows(o: Float64Array, at: number): number[] {
  const rows: number[] = new Array(o[at + HEADER.nSelected]);
  for (let i = 0, k = at + HEADER_LEN; i < rows.length; i++, k += COMP_LEN) rows[i] = o[k];
  return rows;
}

/**
 * Copies the packed subjects at `which` (SUBJECT_LEN slots each) with another stratum mask and query options:
 * one encode per subject serves every step of a bulk valuation (ARV, then each as-is step).
 */
export function repackSubjects(packed: Float64Array, which: ArrayLike<number>, stratumMask: number, opts: QueryOptions = {}): Float64Array {
  const out = new Float64Array(which.length * SUBJECT_LEN);
  for (let j = 0; j < which.length; j++) {
    out.set(packed.subarray(which[j] * SUBJECT_LEN, (which[j] + 1) * SUBJECT_LEN), j * SUBJECT_LEN);
    writeQuery(out, j * SUBJECT_LEN, stratumMask, opts);
  }
  return out;
}

/**
 * The query methods both front-ends share over their `exec` (packed subjects → output records): a single query is
 * encoded into the reused buffer `one`; a batch is packed afresh.
 */
export function queryMethods(exec: (packed: Float64Array, withRejected: boolean) => Float64Array, one: Float64Array): Pick<Kernel, 'queryComps' | 'visitComps' | 'batch'> {
  return {
    queryComps(subject, qopts = {}) {
      encodeSubject(subject, qopts, one, 0);
      return decodeOne(exec(one, true), 0).result;
    },
    visitComps(subject, qopts, visit) {
      encodeSubject(subject, qopts, one, 0);
      visitOne(exec(one, true), 0, visit);
    },
    batch(subjects, qopts = {}) {
      return decodeBatch(exec(encodeSubjects(subjects, qopts), false), subjects.length);
    },
  };
}
