// As-is value (valuation.value_as_is): median of the dated/distressed stratum (n ≥ 3, `primary`), then the same
// stratum at 1.0 mi / 48 months (`relaxed`), then the mixed non-renovated stratum there with a 5% haircut
// (`mixed_condition_haircut`), else null with warning as_is_thin_evidence. Never an input to arv (INV-8).
import type { AsIs } from '../contracts/as-is.js';
import type { Kernel } from '../kernel/kernel.js';
import { STRATUM } from '../kernel/params.js';
import type { CompsResult, QueryOptions, Subject as KernelSubject } from '../kernel/types.js';
import { COMP_POLICY } from '../registry/groups/comp-policy.js';
import { TIER1 } from '../registry/groups/tier1.js';

export type AsIsResult = { asIs: AsIs | null; warnings: string[]; rows: number[] };

type Step = { basis: NonNullable<AsIs['as_is_basis']>; mask: number; opts: QueryOptions; factor: number };

function steps(): Step[] {
  const relaxed = { override: { radiusMi: TIER1.v.as_is_relaxed_radius_mi, windowDays: TIER1.v.as_is_relaxed_window_days } };
  return [
    { basis: 'primary', mask: STRATUM.asIs, opts: {}, factor: 1 },
    { basis: 'relaxed', mask: STRATUM.asIs, opts: relaxed, factor: 1 },
    { basis: 'mixed_condition_haircut', mask: STRATUM.mixed, opts: relaxed, factor: 1 - TIER1.v.as_is_mixed_haircut_frac },
  ];
}

function valued(res: CompsResult): boolean {
  return res.accepted.length >= COMP_POLICY.v.min_comps_value && res.stats.median !== null && res.stats.q25 !== null && res.stats.q75 !== null;
}

/** The as-is value of a subject (kernel subject without stratum); the first step with ≥ 3 comps wins. */
export function valueAsIs(kernel: Kernel, s: Omit<KernelSubject, 'stratumMask'>): AsIsResult {
  const [r] = valueAsIsBatch(kernel, [s]);
  if (r instanceof Error) throw r;
  return r;
}

/**
 * valueAsIs for many subjects: each step is one kernel batch call over the subjects no earlier step valued (bulk
 * scoring). A subject the kernel refuses is its error in place. Batch mode: the as-is needs the comps' summary only, not the rejection list.
 */
export function valueAsIsBatch(kernel: Kernel, subjects: ReadonlyArray<Omit<KernelSubject, 'stratumMask'>>): Array<AsIsResult | Error> {
  const out: Array<AsIsResult | Error> = subjects.map(() => ({ asIs: null, warnings: ['as_is_thin_evidence'], rows: [] }));
  let open = subjects.map((_, i) => i);
  for (const step of steps()) {
    if (open.length === 0) break;
    const results = kernel.batch(open.map((i) => ({ ...subjects[i], stratumMask: step.mask })), step.opts);
    const still: number[] = [];
    results.forEach((res, k) => {
      if (res instanceof Error) return void (out[open[k]] = res);
      if (!valued(res)) return void still.push(open[k]);
      const f = step.factor;
      const asIs: AsIs = {
        value: (res.stats.median as number) * f,
        low: (res.stats.q25 as number) * f,
        high: (res.stats.q75 as number) * f,
        n_comps: res.accepted.length,
        as_is_basis: step.basis,
      };
      out[open[k]] = { asIs, warnings: [], rows: res.accepted.map((a) => a.row) };
    });
    open = still;
  }
  return out;
}
