// As-is value (valuation.value_as_is): median of the dated/distressed stratum (n ≥ 3, `primary`), then the same
// stratum at 1.0 mi / 48 months (`relaxed`), then the mixed non-renovated stratum there with a 5% haircut
// (`mixed_condition_haircut`), else null with warning as_is_thin_evidence. Never an input to arv (INV-8).
import type { AsIs } from '../../contracts/as-is.js';
import type { Kernel } from '../../kernel/kernel.js';
import { STRATUM } from '../../kernel/params.js';
import { SUBJECT_LEN } from '../../kernel/abi-layout.js';
import { decodeSummary, encodeSubjects, kernelError, recordOffsets, repackSubjects, selectedRows } from '../../kernel/decode.js';
import type { QueryOptions, Subject as KernelSubject } from '../../kernel/types.js';
import { COMP_POLICY } from '../../registry/groups/comp-policy.js';
import { TIER1 } from '../../registry/groups/tier1.js';

export type AsIsResult = { asIs: AsIs | null; warnings: string[]; rows: number[] };

type Step = { basis: NonNullable<AsIs['as_is_basis']>; mask: number; opts: QueryOptions; factor: number };

function buildSteps(): Step[] {
  const relaxed = { override: { radiusMi: TIER1.v.as_is_relaxed_radius_mi, windowDays: TIER1.v.as_is_relaxed_window_days } };
  return [
    { basis: 'primary', mask: STRATUM.asIs, opts: {}, factor: 1 },
    { basis: 'relaxed', mask: STRATUM.asIs, opts: relaxed, factor: 1 },
    { basis: 'mixed_condition_haircut', mask: STRATUM.mixed, opts: relaxed, factor: 1 - TIER1.v.as_is_mixed_haircut_frac },
  ];
}

/** The as-is value of a subject (kernel subject without stratum); the first step with ≥ 3 comps wins. */
export function valueAsIs(kernel: Kernel, s: Omit<KernelSubject, 'stratumMask'>): AsIsResult {
  const [r] = valueAsIsBatch(kernel, [s]);
  if (r instanceof Error) throw r;
  return r;
}

/** valueAsIs for many subjects (see valueAsIsPacked); a subject the kernel refuses is its error in place. */
export function valueAsIsBatch(kernel: Kernel, subjects: ReadonlyArray<Omit<KernelSubject, 'stratumMask'>>): Array<AsIsResult | Error> {
  return valueAsIsPacked(kernel, encodeSubjects(subjects.map((s) => ({ ...s, stratumMask: STRATUM.asIs }))));
}

function asIsOf(o: Float64Array, at: number, step: Step): AsIsResult | null {
  const h = decodeSummary(o, at);
  if (!(h.nSelected >= COMP_POLICY.v.min_comps_value && h.median !== null && h.q25 !== null && h.q75 !== null)) return null;
  const f = step.factor;
  return { asIs: { value: h.median * f, low: h.q25 * f, high: h.q75 * f, n_comps: h.nSelected, as_is_basis: step.basis }, warnings: [], rows: selectedRows(o, at) };
}

/**
 * The as-is value of packed subjects (SUBJECT_LEN slots each, any stratum: each step sets its own): each step is one
 * kernel batch call over the subjects no earlier step valued. Batch mode and header-only reads: the as-is needs the
 * comps' count and quartiles (and their rows), not the comp records or the rejection list.
 */
export function valueAsIsPacked(kernel: Kernel, packed: Float64Array): Array<AsIsResult | Error> {
  const n = packed.length / SUBJECT_LEN;
  const out: Array<AsIsResult | Error> = Array.from({ length: n }, () => ({ asIs: null, warnings: ['as_is_thin_evidence'], rows: [] }));
  let open: number[] = Array.from({ length: n }, (_, i) => i);
  for (const step of buildSteps()) {
    if (open.length === 0) break;
    const o = kernel.batchPacked(repackSubjects(packed, open, step.mask, step.opts));
    const at = recordOffsets(o, open.length);
    const still: number[] = [];
    for (let j = 0; j < open.length; j++) {
      if (o[at[j]] !== 0) {
        out[open[j]] = kernelError(o[at[j]], `batch subject ${j}`);
        continue;
      }
      const r = asIsOf(o, at[j], step);
      if (r) out[open[j]] = r;
      else still.push(open[j]);
    }
    open = still;
  }
  return out;
}
