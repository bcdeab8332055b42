// As-is value (valuation.value_as_is): median of the dated/distressed stratum (n ≥ 3, `primary`), then the same
// stratum at 1.0 mi / 48 months (`relaxed`), then the mixed non-renovated stratum there with a 5% haircut
// (`mixed_condition_haircut`), else null with warning as_is_thin_evidence. A subject whose condition is known
// (distressed or dated) is first valued from sales in that same condition, primary then relaxed: a house that needs a
// gut is not worth what a dated one is, and pooling the two prices it as the more common, dated, stock. Never an
// input to arv (INV-8).
import type { AsIs } from '../../contracts/as-is.js';
import type { Kernel } from '../../kernel/kernel.js';
import { conditionBit, STRATUM } from '../../kernel/params.js';
import { SUBJECT_LEN } from '../../kernel/abi-layout.js';
import { decodeSummary, encodeSubjects, kernelError, recordOffsets, repackSubjects, selectedRows } from '../../kernel/decode.js';
import type { QueryOptions, Subject as KernelSubject } from '../../kernel/types.js';
import { COMP_POLICY } from '../../registry/groups/comp-policy.js';
import { TIER1 } from '../../registry/groups/tier1.js';
import { CONDITION_CODE } from '../../store/columns.js';

export type AsIsResult = { asIs: AsIs | null; warnings: string[]; rows: number[] };

type Stratum = NonNullable<AsIs['as_is_stratum']>;
/** A step's stratum for a subject of condition code `cond`, or null when the step does not apply to it. */
type Step = { basis: NonNullable<AsIs['as_is_basis']>; stratumOf: (cond: number) => { mask: number; name: Stratum } | null; opts: QueryOptions; factor: number };

const OWN: Readonly<Record<number, { mask: number; name: Stratum }>> = {
  [CONDITION_CODE.distressed]: { mask: conditionBit(CONDITION_CODE.distressed), name: 'distressed' },
  [CONDITION_CODE.dated]: { mask: conditionBit(CONDITION_CODE.dated), name: 'dated' },
};

function buildSteps(): Step[] {
  const relaxed = { override: { radiusMi: TIER1.v.as_is_relaxed_radius_mi, windowDays: TIER1.v.as_is_relaxed_window_days } };
  const own = (cond: number) => OWN[cond] ?? null;
  // Pooled and mixed strata serve a subject whose condition is stated; one of unknown condition is valued from the
  // whole market around it (every condition, as a house of unknown condition sells among them).
  const stated = (cond: number) => cond !== CONDITION_CODE.unknown;
  const pooled = (cond: number) => (stated(cond) ? { mask: STRATUM.asIs, name: 'dated_distressed' as const } : null);
  const market = (cond: number) => (stated(cond) ? null : { mask: STRATUM.all, name: 'all_conditions' as const });
  return [
    { basis: 'primary', stratumOf: market, opts: {}, factor: 1 },
    { basis: 'relaxed', stratumOf: market, opts: relaxed, factor: 1 },
    { basis: 'primary', stratumOf: own, opts: {}, factor: 1 },
    { basis: 'relaxed', stratumOf: own, opts: relaxed, factor: 1 },
    { basis: 'primary', stratumOf: pooled, opts: {}, factor: 1 },
    { basis: 'relaxed', stratumOf: pooled, opts: relaxed, factor: 1 },
    { basis: 'mixed_condition_haircut', stratumOf: (cond) => (stated(cond) ? { mask: STRATUM.mixed, name: 'non_renovated' } : null), opts: relaxed, factor: 1 - TIER1.v.as_is_mixed_haircut_frac },
  ];
}

/** Condition code of a subject's condition name (unknown when it has none). */
export function conditionCodeOf(condition: string | null | undefined): number {
  return condition != null && Object.hasOwn(CONDITION_CODE, condition) ? CONDITION_CODE[condition as keyof typeof CONDITION_CODE] : CONDITION_CODE.unknown;
}

/** The as-is value of a subject (kernel subject without stratum, its condition code); the first step with ≥ 3 comps wins. */
export function valueAsIs(kernel: Kernel, s: Omit<KernelSubject, 'stratumMask'>, condition: number = CONDITION_CODE.unknown): AsIsResult {
  const [r] = valueAsIsPacked(kernel, encodeSubjects([{ ...s, stratumMask: STRATUM.asIs }]), [condition]);
  if (r instanceof Error) throw r;
  return r;
}

function asIsOf(o: Float64Array, at: number, step: Step, stratum: Stratum): AsIsResult | null {
  const h = decodeSummary(o, at);
  if (!(h.nSelected >= COMP_POLICY.v.min_comps_value && h.median !== null && h.q25 !== null && h.q75 !== null)) return null;
  const f = step.factor;
  return { asIs: { value: h.median * f, low: h.q25 * f, high: h.q75 * f, n_comps: h.nSelected, as_is_basis: step.basis, as_is_stratum: stratum }, warnings: [], rows: selectedRows(o, at) };
}

/**
 * The as-is value of packed subjects (SUBJECT_LEN slots each, any stratum: each step sets its own) of condition codes
 * `conditions` (unknown when absent): each step is one kernel batch call per stratum over the subjects no earlier step
 * valued. Batch mode and header-only reads: the as-is needs the comps' count and quartiles (and their rows), not the
 * comp records or the rejection list.
 */
export function valueAsIsPacked(kernel: Kernel, packed: Float64Array, conditions?: ArrayLike<number>): Array<AsIsResult | Error> {
  const n = packed.length / SUBJECT_LEN;
  const out: Array<AsIsResult | Error> = Array.from({ length: n }, () => ({ asIs: null, warnings: ['as_is_thin_evidence'], rows: [] }));
  const done = new Uint8Array(n);
  for (const step of buildSteps()) {
    const groups = new Map<number, { name: Stratum; subjects: number[] }>();
    for (let i = 0; i < n; i++) {
      if (done[i]) continue;
      const st = step.stratumOf(conditions?.[i] ?? CONDITION_CODE.unknown);
      if (!st) continue;
      let g = groups.get(st.mask);
      if (!g) groups.set(st.mask, (g = { name: st.name, subjects: [] }));
      g.subjects.push(i);
    }
    for (const [mask, g] of groups) {
      const o = kernel.batchPacked(repackSubjects(packed, g.subjects, mask, step.opts));
      const at = recordOffsets(o, g.subjects.length);
      for (let j = 0; j < g.subjects.length; j++) {
        const i = g.subjects[j];
        if (o[at[j]] !== 0) {
          out[i] = kernelError(o[at[j]], `batch subject ${j}`);
          done[i] = 1;
          continue;
        }
        const r = asIsOf(o, at[j], step, g.name);
        if (r) {
          out[i] = r;
          done[i] = 1;
        }
      }
    }
  }
  return out;
}
