// What 2-4-unit subjects get from the served display ladder (issue 14 item 5): every arms-length 2-4-unit sale of the
// last `days` before the serving cutoff is valued through the bulk path (decideBulk: the subject, evidence and ladder a
// served valuation gets, with the store's champion calibration and hedonic model) as of its sale day, its own parcel
// excluded. Per county and segment: Tier-1 point / Tier-1 range / Tier-2 range / area context / suppressed, the reason
// of each non-point outcome, and for sales the snapshot calls renovated the MdAPE and 80% coverage of the served number
// or band. Tier 2's model may be fit after some of these sales: outcome shares, not a clean error figure (the
// out-of-time figures are `avm calibrate --report`'s). Used by scripts/mf-coverage.ts and `npm run bench -- accuracy`.
import { median } from '../../reference/stats.js';
import { CONDITION_CODE, PTYPE_CODE } from '../../store/columns.js';
import { isoOfDay } from '../../store/days.js';
import { armsLengthMask } from '../../store/sales-columns.js';
import { decideBulk } from '../bulk.js';
import { servingCutoffDay, type ValuationContext } from '../value-context.js';
import type { ValueInput } from '../value.js';

export type CoverageGroup = {
  group: string;
  n: number;
  shares: Record<string, number>;
  /** Share with a Tier-1 point, a Tier-1 range or a Tier-2 range. */
  answered: number;
  reasons: Record<string, number>;
  renovated: Record<string, { n: number; mdape: number; cov80: number | null }>;
};
export type ServedCoverage = { window: { from: string; to: string }; calibration: string | null; groups: CoverageGroup[] };

type Tally = { n: number; outcomes: Record<string, number>; reasons: Record<string, number>; errs: Record<string, number[]>; covered: Record<string, number[]> };
const bump = (m: Record<string, number>, k: string): void => void (m[k] = (m[k] ?? 0) + 1);

export function multiFamilyCoverage(ctx: ValuationContext, days: number): ServedCoverage {
  const s = ctx.sales;
  const arms = armsLengthMask(s);
  const endDay = servingCutoffDay(s);
  const rows: number[] = [];
  for (let i = 0; i < s.length; i++) {
    if (arms[i] === 1 && s.ptype[i] === PTYPE_CODE.mf2_4 && s.saleDay[i] >= endDay - days && s.saleDay[i] < endDay) rows.push(i);
  }
  const inputs: ValueInput[] = rows.map((r) => ({ parcelRow: s.parcelIdx[r], asOf: isoOfDay(s.saleDay[r]) }));
  const tallies = new Map<string, Tally>();
  const tallyOf = (key: string): Tally => tallies.get(key) ?? tallies.set(key, { n: 0, outcomes: {}, reasons: {}, errs: {}, covered: {} }).get(key)!;
  decideBulk(inputs, ctx, (k, d) => {
    const row = rows[k];
    const county = s.county[row] === 2 ? 'lake' : 'cook';
    const keys = d instanceof Error ? [`${county}/error`] : [`${county}/${d.r.segment ?? 'unsegmented'}`, `${county}/all`];
    for (const key of keys) {
      const g = tallyOf(key);
      g.n++;
      if (d instanceof Error) { bump(g.outcomes, 'error'); bump(g.reasons, d.code); continue; }
      const dec = d.decision;
      const outcome = dec.outcome === 'range' ? 'tier1_range' : dec.outcome;
      bump(g.outcomes, outcome);
      const reason = dec.outcome === 'point' ? null : dec.outcome === 'range' ? `range:${dec.arv.range_reason}` : `${outcome}:${dec.arvNullReason}`;
      if (reason) bump(g.reasons, reason);
      if (s.condition[row] !== CONDITION_CODE.renovated) continue;
      const price = s.priceUsd[row];
      const est = dec.artifactArv?.value ?? dec.arv.model?.value ?? null;
      const lo = dec.artifactArv?.low ?? dec.arv.low, hi = dec.artifactArv?.high ?? dec.arv.high;
      if (est === null) continue;
      (g.errs[outcome] ??= []).push(Math.abs(est / price - 1));
      if (lo !== null && hi !== null) (g.covered[outcome] ??= []).push(price >= lo && price <= hi ? 1 : 0);
    }
  });
  const groups = [...tallies].sort((a, b) => a[0].localeCompare(b[0])).map(([group, g]) => ({
    group,
    n: g.n,
    shares: Object.fromEntries(Object.entries(g.outcomes).map(([o, c]) => [o, c / g.n])),
    answered: ((g.outcomes.point ?? 0) + (g.outcomes.tier1_range ?? 0) + (g.outcomes.tier2_range ?? 0)) / g.n,
    reasons: Object.fromEntries(Object.entries(g.reasons).sort((a, b) => b[1] - a[1])),
    renovated: Object.fromEntries(Object.entries(g.errs).map(([o, e]) => [o, { n: e.length, mdape: median(e), cov80: g.covered[o]?.length ? g.covered[o].reduce((a, b) => a + b, 0) / g.covered[o].length : null }])),
  }));
  return { window: { from: isoOfDay(endDay - days), to: isoOfDay(endDay) }, calibration: ctx.calibration?.version ?? null, groups };
}
