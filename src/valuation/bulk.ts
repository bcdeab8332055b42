// Bulk valuation for scoring every parcel: the kernel's batch entry over a whole chunk of subjects (Tier-1 ARV and
// each as-is step one call each, subjects packed once), then the same evidence → ladder → rehab/tax/rent functions a
// single valuation uses. Kernel records are decoded one subject at a time, so a subject's objects die young.
// Only what scoring reads is assembled (score-columns.ts): no comp lists, no artifact, no inputs hash.
import { AppError } from '../errors/app-error.js';
import { SUBJECT_LEN } from '../kernel/abi-layout.js';
import { decodeOne, encodeSubjectAs, kernelError, recordOffsets } from '../kernel/decode.js';
import { STRATUM } from '../kernel/params.js';
import type { CompsResult } from '../kernel/types.js';
import { COMP_POLICY } from '../registry/groups/comp-policy.js';
import { conditionCodeOf, valueAsIsPacked, type AsIsResult } from './comps/as-is.js';
import { resolveSubject, statedCondition, type ResolvedSubject } from './subject/subject.js';
import { kernelSubject, tier1EvidenceOf, type Tier1Result, type Tier1Subject } from './comps/tier1.js';
import { asOfOf, decideFrom, gates, isBlocked, tier1SubjectOf, type Decided, type ValueInput } from './value.js';
import type { ValuationContext } from './value-context.js';

const asAppError = (e: unknown): AppError => (e instanceof AppError ? e : new AppError('internal_error', (e as Error)?.message ?? String(e)));
const THIN: AsIsResult = { asIs: null, warnings: ['as_is_thin_evidence'], rows: [] };

type Open = { k: number; r: ResolvedSubject; at: { asOfIso: string; asOfDay: number }; ts: Tier1Subject | null };

/**
 * Tier-1 evidence from a batch-mode result. The luxury test needs the candidate pool (rejections), which batch mode
 * does not return, but it can only fire below min_comps_point comps: those subjects get the single query (with
 * rejections) first; both go through tier1.ts tier1EvidenceOf, as computeTier1 does.
 */
function tier1Evidence(ctx: ValuationContext, ts: Tier1Subject, batchRes: CompsResult): Tier1Result['evidence'] {
  const thin = batchRes.accepted.length < COMP_POLICY.v.min_comps_point;
  const raw = thin ? ctx.kernel.queryComps({ ...kernelSubject(ts), stratumMask: STRATUM.arv }) : batchRes;
  return tier1EvidenceOf(ctx, ts, raw).evidence;
}

/** Resolves every input; a subject that cannot be resolved (or has no property type) is its error in place. */
function resolveAll(inputs: readonly ValueInput[], ctx: ValuationContext, fail: (k: number, e: AppError) => void): Open[] {
  const open: Open[] = [];
  const asOf = new Map<string | null, { asOfIso: string; asOfDay: number }>(); // one date parse per distinct as-of in a batch
  inputs.forEach((input, k) => {
    try {
      const r = resolveSubject(input, ctx.subjects);
      const key = input.asOf ?? null;
      const at = asOf.get(key) ?? asOf.set(key, asOfOf(input, ctx)).get(key)!;
      open.push({ k, r, at, ts: isBlocked(gates(r, ctx)) ? null : tier1SubjectOf(r, ctx, at.asOfDay) });
    } catch (e) {
      fail(k, asAppError(e));
    }
  });
  return open;
}

/** The valued subjects packed once in the kernel's layout (ARV stratum; the as-is steps repack with their own). */
function packValued(valued: readonly Open[]): Float64Array {
  const packed = new Float64Array(valued.length * SUBJECT_LEN);
  // As the kernel compares it (kernelSubject: bedrooms per unit for 2-4 units); the as-is steps reuse this packing.
  for (let i = 0; i < valued.length; i++) encodeSubjectAs(kernelSubject(valued[i].ts as Tier1Subject), STRATUM.arv, {}, packed, i * SUBJECT_LEN);
  return packed;
}

/** The ARV batch output and its record offsets: each subject's record is decoded when that subject is decided. */
type ArvBatch = { out: Float64Array; at: Int32Array };

function arvResult(b: ArvBatch, i: number): CompsResult | AppError {
  const at = b.at[i];
  return b.out[at] !== 0 ? kernelError(b.out[at], `batch subject ${i}`) : decodeOne(b.out, at).result;
}

/**
 * Decides every input (same subject, evidence and ladder decision as valueProperty's decide, area context only when
 * it can change the outcome) and hands each to `visit` in input order of the resolvable ones (errors first, as found):
 * the Decided, or the AppError valueProperty would have thrown for it.
 */
export function decideBulk(inputs: readonly ValueInput[], ctx: ValuationContext, visit: (k: number, d: Decided | AppError) => void): void {
  const open = resolveAll(inputs, ctx, visit);
  const valued = open.filter((o) => o.ts !== null);
  const packed = packValued(valued);
  const out = ctx.kernel.batchPacked(packed);
  const arv: ArvBatch = { out, at: recordOffsets(out, valued.length) };
  const asIs = valueAsIsPacked(ctx.kernel, packed, valued.map((o) => conditionCodeOf(statedCondition(o.r.subject))));
  let v = 0;
  for (const o of open) {
    try {
      const i = o.ts ? v++ : -1;
      const res = i >= 0 ? arvResult(arv, i) : null;
      if (res instanceof Error) throw res;
      if (i >= 0 && asIs[i] instanceof Error) throw asIs[i];
      const t1 = res && o.ts ? tier1Evidence(ctx, o.ts, res) : null;
      const input = inputs[o.k];
      visit(o.k, decideFrom(o.r, ctx, o.at, t1, i >= 0 ? (asIs[i] as AsIsResult) : THIN, { ownerOccupied: input.ownerOccupied ?? false, area: 'when_needed' }));
    } catch (e) {
      visit(o.k, asAppError(e));
    }
  }
}
