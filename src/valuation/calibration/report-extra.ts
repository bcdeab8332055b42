// The backtest report's lines beside Tier 1: Tier-2 hedonic_v1 errors (fit before the Tier-1 split day, scored on the
// Tier-1 test window) and rent errors (as-is contract rent against the generator's true rents). Report only: nothing
// here reaches the calibration table, the registry or serving.
import { isAppError } from '../../errors/app-error.js';
import type { Store } from '../../store/store.js';
import { backtestHedonic, type HedonicBacktest } from '../hedonic/backtest.js';
import { tractMetaFromRecords } from '../hedonic/job.js';
import type { SalesColumns } from '../../store/sales-columns.js';
import { backtestRent, type RentBacktest } from '../economics/rent-backtest.js';

/** A side backtest's result, or why it has none (a real corpus has no true rents; a fit can fail on a tiny corpus). */
export type Side<T> = { ok: true; result: T } | { ok: false; note: string };
export type BesideTier1 = { tier2: Side<HedonicBacktest>; rent: Side<RentBacktest> };

const noteOf = (e: unknown): string => (isAppError(e) ? `${e.code}: ${e.message}` : String((e as Error)?.message ?? e));

/**
 * Tier 2 is fit on the sales before `splitDay` (the Tier-1 holdout's calibration/test boundary, unchanged) and
 * scored on every arms-length sale of [splitDay, endDay): the same out-of-time window as the Tier-1 test half
 * (Tier 1 scores its renovated sales only; Tier 2 values each sale in its own condition).
 */
export async function backtestsBesideTier1(store: Store, sales: SalesColumns, w: { dataDir: string; splitDay: number; endDay: number }): Promise<BesideTier1> {
  let tier2: Side<HedonicBacktest>;
  try {
    tier2 = { ok: true, result: backtestHedonic({ sales, tractMeta: tractMetaFromRecords(store.getTracts()), cutoffDay: w.splitDay, horizonDays: w.endDay - w.splitDay }) };
  } catch (e) {
    tier2 = { ok: false, note: `tier-2 backtest failed: ${noteOf(e)}` };
  }
  let rent: Side<RentBacktest>;
  try {
    rent = { ok: true, result: await backtestRent({ dataDir: w.dataDir }) };
  } catch (e) {
    rent = { ok: false, note: `rent backtest not run: ${noteOf(e)}` };
  }
  return { tier2, rent };
}

const pct = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null | undefined, d = 3): string => (x === null || x === undefined ? '—' : x.toFixed(d));

/** Tier-1 test MdAPE per segment (from the main rows) beside Tier 2's on the same window. */
export function besideMarkdown(b: BesideTier1, tier1: ReadonlyArray<{ group: string; n: number; mdape: number | null; ppe10: number | null }>): string[] {
  const out: string[] = [];
  if (b.tier2.ok) {
    const h = b.tier2.result;
    const t2 = new Map<string, Partial<HedonicBacktest['segments'][number]>>(h.segments.map((s) => [s.segment, s]));
    t2.set('overall', h.overall);
    const groups = [...new Set([...tier1.map((r) => r.group).filter((g) => g !== 'overall'), ...h.segments.map((s) => s.segment)])].sort();
    out.push(`Tier 2 (${h.model_version}, fit before ${h.cutoff}, scored over ${h.horizon_days} days) beside Tier 1 (test half):`);
    out.push('| segment | T1 n | T1 MdAPE | T1 PPE10 | T2 n | T2 MdAPE | T2 PPE10 | T2 cov80 | T2 width80 | T2 unresolved | T2 display-eligible |', '|---|---|---|---|---|---|---|---|---|---|---|');
    for (const g of [...groups, 'overall']) {
      const a = tier1.find((r) => r.group === g), s = t2.get(g);
      out.push(`| ${g} | ${a?.n ?? '—'} | ${pct(a?.mdape)} | ${pct(a?.ppe10)} | ${s?.n_test ?? '—'} | ${pct(s?.mdape)} | ${pct(s?.ppe10)} | ${pct(s?.coverage80)} | ${num(s?.mean_width)} | ${s?.n_unresolved ?? '—'} | ${s?.display_eligible === undefined ? '—' : s.display_eligible ? 'yes' : 'no'} |`);
    }
  } else out.push(b.tier2.note);
  if (b.rent.ok) {
    const r = b.rent.result;
    out.push(`Rent (as-is contract rent vs the generator's true rent, sales ${r.window_from} → ${r.window_to}, ${r.n_skipped} skipped):`);
    out.push('| segment | n | MdAPE | PPE10 | median est/true | band coverage |', '|---|---|---|---|---|---|');
    const rows = [...r.segments, ...r.groups.filter((g) => g.group !== 'all').map((g) => ({ ...g, group: `${g.group} (all areas)` })), ...r.groups.filter((g) => g.group === 'all').map((g) => ({ ...g, group: 'overall' }))];
    for (const g of rows) out.push(`| ${g.group} | ${g.n} | ${pct(g.mdape)} | ${pct(g.ppe10)} | ${num(g.median_ratio)} | ${pct(g.coverage)} |`);
  } else out.push(b.rent.note);
  return out;
}
