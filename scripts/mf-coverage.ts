// Measures what 2-4-unit subjects get from the served display ladder (issue 14 item 5): every arms-length 2-4-unit
// sale of the last `--days` (default tier1.holdout_days / 2, the calibration test half) is valued through the bulk
// path (decideBulk: the same subject, evidence and ladder a served valuation gets, with the store's champion
// calibration table and hedonic model) as of its sale day, its own parcel excluded. Tabulated per county and segment:
// Tier-1 point / Tier-1 range / Tier-2 range / area context / suppressed, the reason of each non-point outcome, and
// for renovated sales (the ones whose price an ARV predicts) the MdAPE and 80% coverage of the served number or band.
// Tier-2's model may have been fit after some of these sales (outcome shares, not a clean error figure: the
// out-of-time figures are `avm calibrate --report`'s). `npx tsx scripts/mf-coverage.ts --data-dir DIR [--days N] [--json]`.
import { median } from '../src/reference/stats.js';
import { TIER1 } from '../src/registry/groups/tier1.js';
import { CONDITION_CODE, PTYPE_CODE } from '../src/store/columns.js';
import { armsLengthMask } from '../src/store/sales-columns.js';
import { isoOfDay } from '../src/store/days.js';
import { openStore } from '../src/store/store.js';
import { decideBulk } from '../src/valuation/bulk.js';
import { buildValuationContext, servingCutoffDay } from '../src/valuation/value-context.js';
import type { ValueInput } from '../src/valuation/value.js';

const args = process.argv.slice(2);
const opt = (name: string): string | null => (args.includes(name) ? args[args.indexOf(name) + 1] : null);
const dataDir = opt('--data-dir');
if (!dataDir) throw new Error('usage: mf-coverage.ts --data-dir DIR [--days N] [--json]');
const days = Number(opt('--days') ?? Math.round(TIER1.v.holdout_days / 2));

const store = openStore(dataDir);
const ctx = buildValuationContext(store);
const s = ctx.sales;
const arms = armsLengthMask(s);
const endDay = servingCutoffDay(s);
const rows: number[] = [];
for (let i = 0; i < s.length; i++) {
  if (arms[i] === 1 && s.ptype[i] === PTYPE_CODE.mf2_4 && s.saleDay[i] >= endDay - days && s.saleDay[i] < endDay) rows.push(i);
}
const inputs: ValueInput[] = rows.map((r) => ({ parcelRow: s.parcelIdx[r], asOf: isoOfDay(s.saleDay[r]) }));

type Group = { n: number; outcomes: Record<string, number>; reasons: Record<string, number>; errs: Record<string, number[]>; covered: Record<string, number[]> };
const groups = new Map<string, Group>();
const bump = (m: Record<string, number>, k: string): void => void (m[k] = (m[k] ?? 0) + 1);
const groupOf = (key: string): Group => groups.get(key) ?? groups.set(key, { n: 0, outcomes: {}, reasons: {}, errs: {}, covered: {} }).get(key)!;

decideBulk(inputs, ctx, (k, d) => {
  const row = rows[k];
  const county = s.county[row] === 2 ? 'lake' : 'cook';
  const keys = d instanceof Error ? [`${county}/error`] : [`${county}/${d.r.segment ?? 'unsegmented'}`, `${county}/all`];
  for (const key of keys) {
    const g = groupOf(key);
    g.n++;
    if (d instanceof Error) { bump(g.outcomes, 'error'); bump(g.reasons, d.code); continue; }
    const dec = d.decision;
    const outcome = dec.outcome === 'range' ? 'tier1_range' : dec.outcome;
    bump(g.outcomes, outcome);
    const reason = dec.outcome === 'point' ? null : dec.outcome === 'range' ? `range:${dec.arv.range_reason}` : `${outcome}:${dec.arvNullReason}`;
    if (reason) bump(g.reasons, reason);
    if (s.condition[row] !== CONDITION_CODE.renovated) continue;
    // Renovated sales: the served number (Tier-1 value, else the Tier-2 model value) and band against the price.
    const price = s.priceUsd[row];
    const est = dec.artifactArv?.value ?? dec.arv.model?.value ?? null;
    const lo = dec.artifactArv?.low ?? dec.arv.low, hi = dec.artifactArv?.high ?? dec.arv.high;
    if (est === null) continue;
    (g.errs[outcome] ??= []).push(Math.abs(est / price - 1));
    if (lo !== null && hi !== null) (g.covered[outcome] ??= []).push(price >= lo && price <= hi ? 1 : 0);
  }
});

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const report = [...groups].sort((a, b) => a[0].localeCompare(b[0])).map(([key, g]) => ({
  group: key,
  n: g.n,
  shares: Object.fromEntries(Object.entries(g.outcomes).map(([o, c]) => [o, c / g.n])),
  answered: ((g.outcomes.point ?? 0) + (g.outcomes.tier1_range ?? 0) + (g.outcomes.tier2_range ?? 0)) / g.n,
  reasons: Object.fromEntries(Object.entries(g.reasons).sort((a, b) => b[1] - a[1])),
  renovated: Object.fromEntries(Object.entries(g.errs).map(([o, e]) => [o, { n: e.length, mdape: median(e), cov80: g.covered[o]?.length ? g.covered[o].reduce((a, b) => a + b, 0) / g.covered[o].length : null }])),
}));
if (args.includes('--json')) {
  console.log(JSON.stringify({ dataDir, window: { from: isoOfDay(endDay - days), to: isoOfDay(endDay) }, calibration: ctx.calibration?.version ?? null, groups: report }, null, 2));
} else {
  console.log(`2-4-unit arms-length sales ${isoOfDay(endDay - days)} → ${isoOfDay(endDay)}, calibration ${ctx.calibration?.version ?? 'none'}`);
  for (const g of report) {
    console.log(`\n${g.group}: n ${g.n}, Tier-1 or Tier-2 answer ${pct(g.answered)}`);
    console.log(`  outcomes: ${Object.entries(g.shares).map(([o, x]) => `${o} ${pct(x)}`).join(', ')}`);
    console.log(`  reasons:  ${Object.entries(g.reasons).map(([r, c]) => `${r} ${c}`).join(', ') || '—'}`);
    console.log(`  renovated sales: ${Object.entries(g.renovated).map(([o, m]) => `${o} n ${m.n} MdAPE ${pct(m.mdape)} cov80 ${m.cov80 === null ? '—' : pct(m.cov80)}`).join('; ') || '—'}`);
  }
}
store.close();
