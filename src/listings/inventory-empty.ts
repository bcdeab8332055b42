// Why an inventory search has no row for a strategy, in words, from the stored rows alone: nothing scored yet (the
// daily run has not populated the store), or what the scored rows were (not point-supported, stale, gated out by
// which checks and by how much). Never blames the daily run when it did run.
import { MODEL_VERSION } from '../registry/versions.js';
import type { Strategy } from '../underwriting/types.js';
import { gateNumber as fmt, isPointSupportedRow as isPoint, type ScoredListing } from './rows.js';

export const NOT_POPULATED_REASON = 'no scored point-supported inventory for this strategy (check health last_run: the daily run may not have populated it)';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Median (mean of the two middle values for an even count); null for none. */
function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Labelled counts, largest first, ties by label: "3 dscr below 1.2 (median 1)". */
class Tally {
  private readonly counts = new Map<string, { n: number; values: number[] }>();
  add(label: string, value?: number | null): void {
    const t = this.counts.get(label) ?? { n: 0, values: [] };
    t.n++;
    if (value !== undefined && value !== null) t.values.push(value);
    this.counts.set(label, t);
  }
  get size(): number {
    return this.counts.size;
  }
  toString(): string {
    return [...this.counts]
      .sort((a, b) => b[1].n - a[1].n || (a[0] < b[0] ? -1 : 1))
      .map(([label, t]) => {
        const m = median(t.values);
        return `${t.n} ${label}${m === null ? '' : ` (median ${fmt(m)})`}`;
      })
      .join(', ');
  }
}

/** Why point-supported, current rows have no percentile for `strategy`: their gate failures or unscored reasons. */
function explainPoints(points: readonly ScoredListing[], strategy: Strategy): string {
  const checks = new Tally();
  const reasons = new Tally();
  let gated = 0;
  for (const r of points) {
    const reason = r.strategy_null_reasons?.[strategy] ?? 'no percentile';
    if (reason !== 'gated_out') {
      reasons.add(reason);
      continue;
    }
    gated++;
    const failures = r.strategy_gate_failures?.[strategy];
    if (!failures) checks.add('gated out (checks not stored on this row)');
    else for (const f of failures) {
      if (f.value === null) checks.add(`${f.metric} not evaluable`);
      else checks.add(`${f.metric} ${f.direction === 'min' ? 'below' : 'above'} ${fmt(f.threshold)}`, f.value);
    }
  }
  const head = `${points.length} point-supported`;
  if (gated === points.length) return `${head}, all gated out for ${strategy}: ${checks}`;
  if (gated > 0) reasons.add(`gated out (${checks})`);
  return `${head}, none scored for ${strategy}: ${reasons}`;
}

/**
 * The empty_reason of a search that found no eligible row for `strategy` (filters aside): the rows are classified in
 * inventory.ts exclusionOf's order (not active, not point, stale, unscored for the strategy).
 */
export function explainNoEligibleRows(rows: readonly ScoredListing[], strategy: Strategy, modelVersion = MODEL_VERSION): string {
  const active = rows.filter((r) => r.status === 'active');
  if (active.length === 0) return NOT_POPULATED_REASON;
  const parts: string[] = [];
  const nonPoint = new Tally();
  for (const r of active) if (!isPoint(r)) nonPoint.add(r.valuation?.outcome ?? (r.provenance?.error ? 'valuation failed' : 'unknown outcome'));
  const nNonPoint = active.filter((r) => !isPoint(r)).length;
  if (nNonPoint > 0) parts.push(`${nNonPoint} without a point valuation (${nonPoint})`);
  const stale = active.filter((r) => isPoint(r) && r.model_version !== modelVersion).length;
  if (stale > 0) parts.push(`${stale} scored by an older model version (the next run rescores ${stale === 1 ? 'it' : 'them'})`);
  const points = active.filter((r) => isPoint(r) && r.model_version === modelVersion);
  if (points.length > 0) parts.push(explainPoints(points, strategy));
  return `${plural(active.length, 'active listing')} scored by the last run, none with a ${strategy} percentile: ${parts.join('; ')}`;
}
