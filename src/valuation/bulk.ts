// Bulk valuation for scoring every parcel: the kernel's batch entry over a whole chunk of subjects (Tier-1 ARV and
// each as-is step one call each), then the same evidence → ladder → rehab/tax/rent functions a single valuation uses.
// Only what scoring reads is assembled: no comp lists, no artifact, no inputs hash (see artifact.ts scoringView).
import { AppError } from '../errors/app-error.js';
import { STRATUM } from '../kernel/params.js';
import type { CompsResult } from '../kernel/types.js';
import { COMP_POLICY } from '../registry/groups/comp-policy.js';
import { MODEL_VERSION } from '../registry/versions.js';
import { scoringView, type ScorableValuation } from './artifact.js';
import { valueAsIsBatch, type AsIsResult } from './as-is.js';
import { resolveSubject, type ResolvedSubject } from './subject.js';
import { kernelSubject, tier1EvidenceOf, type Tier1Result, type Tier1Subject } from './tier1.js';
import { asOfOf, decideFrom, economicsPartsOf, gates, isBlocked, tier1SubjectOf, type ValueInput } from './value.js';
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
function resolveAll(inputs: readonly ValueInput[], ctx: ValuationContext, out: Array<ScorableValuation | AppError>): Open[] {
  const open: Open[] = [];
  const asOf = new Map<string | null, { asOfIso: string; asOfDay: number }>(); // one date parse per distinct as-of in a batch
  inputs.forEach((input, k) => {
    try {
      const r = resolveSubject(input, ctx.subjects);
      const key = input.asOf ?? null;
      const at = asOf.get(key) ?? asOf.set(key, asOfOf(input, ctx)).get(key)!;
      open.push({ k, r, at, ts: isBlocked(gates(r, ctx)) ? null : tier1SubjectOf(r, ctx, at.asOfDay) });
    } catch (e) {
      out[k] = asAppError(e);
    }
  });
  return open;
}

/**
 * The scoring view of each input's valuation (same decision, money and economics inputs as valueProperty; area
 * context only when it can change the outcome), or the AppError valueProperty would have thrown for it.
 */
export function valueBulk(inputs: readonly ValueInput[], ctx: ValuationContext): Array<ScorableValuation | AppError> {
  const out: Array<ScorableValuation | AppError> = new Array(inputs.length);
  const open = resolveAll(inputs, ctx, out);
  const valued = open.filter((o) => o.ts !== null);
  const arv = ctx.kernel.batch(valued.map((o) => ({ ...kernelSubject(o.ts as Tier1Subject), stratumMask: STRATUM.arv })));
  const asIs = valueAsIsBatch(ctx.kernel, valued.map((o) => kernelSubject(o.ts as Tier1Subject)));
  const byK = new Map<number, { res: CompsResult | AppError; asIs: AsIsResult | Error }>();
  valued.forEach((o, i) => byK.set(o.k, { res: arv[i], asIs: asIs[i] }));
  for (const o of open) {
    try {
      const hit = byK.get(o.k);
      if (hit?.res instanceof Error) throw hit.res;
      if (hit?.asIs instanceof Error) throw hit.asIs;
      const t1 = hit && o.ts ? tier1Evidence(ctx, o.ts, hit.res as CompsResult) : null;
      const input = inputs[o.k];
      const p = decideFrom(o.r, ctx, o.at, t1, (hit?.asIs as AsIsResult | undefined) ?? THIN, { ownerOccupied: input.ownerOccupied ?? false, area: 'when_needed' });
      out[o.k] = scoringView(p.decision, p.asIs.asIs, { modelVersion: MODEL_VERSION, asOf: p.asOfIso, subject: o.r.subject }, economicsPartsOf(p, input, ctx));
    } catch (e) {
      out[o.k] = asAppError(e);
    }
  }
  return out;
}
