// The report page's charts, each a pure function of report data to one <svg> string (svg.ts says why by hand):
// reliability of confidence_p10, interval coverage as dots against the nominal band, signed log error histograms and
// quantile strips, MdAPE of the model beside its baselines.
import { REPORT_FIGURES } from '../../../registry/groups/report.js';
import { VALUATION_DISPLAY } from '../../../registry/groups/valuation.js';
import type { ErrorDistribution, Reliability } from '../report-figures.js';
import { axisBottom, axisLeft, bandScale, el, label, linearScale, niceTicks, svgFrame, title } from './svg.js';

/** A fraction as a percentage with one decimal (0.803 → 80.3%). */
export const pct1 = (x: number): string => `${(x * 100).toFixed(1)}%`;

/**
 * The square both axes share: everything drawn, padded to whole tens, at least 20 points wide, within 0-100. Zoomed
 * because a corpus's rows promise within a few points of each other; a fixed 0-100 square would stack them in one blob.
 */
export function reliabilityDomain(rel: Reliability): [number, number] {
  const vs = [...rel.bins.flatMap((b) => [b.meanPredicted, b.ciLo, b.ciHi]), ...rel.points.flatMap((p) => [p.predicted, p.observed])];
  if (!vs.length) return [0, 100];
  let lo = Math.max(0, Math.floor((Math.min(...vs) - 2) / 10) * 10);
  let hi = Math.min(100, Math.ceil((Math.max(...vs) + 2) / 10) * 10);
  if (hi - lo < 20) [lo, hi] = lo + 20 <= 100 ? [lo, lo + 20] : [hi - 20, hi];
  return [lo, hi];
}

/** Promised confidence_p10 (x) against the observed share within ±10% (y): bins with 95% intervals, calibration keys as dots. */
export function reliabilityChart(rel: Reliability): string {
  const W = 460, H = 420, L = 64, T = 16, S = 340;
  const [lo, hi] = reliabilityDomain(rel);
  const x = linearScale([lo, hi], [L, L + S]);
  const y = linearScale([lo, hi], [T + S, T]);
  const ticks = niceTicks(lo, hi, 5);
  const maxN = Math.max(1, ...rel.bins.map((b) => b.n));
  const radius = (n: number): number => 3 + 11 * Math.sqrt(n / maxN);
  const keys = rel.points.map((p) => el('circle', { cx: x(p.predicted), cy: y(p.observed), r: 3, class: 'key-dot' }, title(`${p.key}: promised ${p.predicted.toFixed(1)}, observed ${p.observed.toFixed(1)} (n ${p.n})`)));
  const bins = rel.bins.map((b) => el('g', { class: 'bin' },
    el('line', { x1: x(b.meanPredicted), x2: x(b.meanPredicted), y1: y(b.ciLo), y2: y(b.ciHi), class: 'ci' }),
    el('circle', { cx: x(b.meanPredicted), cy: y(b.observed), r: radius(b.n), class: 'bin-dot' }, title(`confidence_p10 ${b.lo}–${b.hi}: n ${b.n}, mean promised ${b.meanPredicted.toFixed(1)}, observed ${b.observed.toFixed(1)} (95% ${b.ciLo.toFixed(1)}–${b.ciHi.toFixed(1)})`)),
    label(x(b.meanPredicted) + radius(b.n) + 3, y(b.observed) + 4, `n ${b.n}`, { class: 'note' })));
  return svgFrame(W, H, 'Reliability of confidence_p10',
    el('line', { x1: x(lo), y1: y(lo), x2: x(hi), y2: y(hi), class: 'ideal' }),
    axisBottom(x, T + S, ticks, String, 'confidence_p10 promised (calibration half)'),
    axisLeft(y, L, ticks, String, 'observed % within ±10% (test half)'),
    ...keys, ...bins);
}

export type CoverageDot = { label: string; n: number; value: number | null; oracle?: number | null };

/** One row per group: its 80% interval coverage as a dot, the nominal ± tolerance band shaded, the oracle's as a ring. */
export function coverageChart(rows: readonly CoverageDot[], nominal: number, tolerance: number, name: string): string {
  const W = 760, L = 210, R = 150, T = 10, rowH = 24;
  const H = T + rows.length * rowH + 44;
  const values = rows.flatMap((r) => [r.value, r.oracle ?? null]).filter((v): v is number => v !== null);
  const lo = Math.min(0.5, Math.floor(Math.min(1, ...values) * 10) / 10);
  const x = linearScale([lo, 1], [L, W - R]);
  const yb = bandScale(rows.map((_, i) => String(i)), [T, T + rows.length * rowH], 1);
  const band = el('rect', { x: x(nominal - tolerance), y: T, width: x(nominal + tolerance) - x(nominal - tolerance), height: rows.length * rowH, class: 'target-band' });
  const marks = rows.map((r, i) => {
    const cy = yb.at(String(i)) + rowH / 2;
    const dot = r.value === null ? '' : el('circle', { cx: x(r.value), cy, r: 5, class: 'cov-dot' }, title(`${r.label}: ${pct1(r.value)} of ${r.n}`));
    const ring = r.oracle == null ? '' : el('circle', { cx: x(r.oracle), cy, r: 6, class: 'oracle-ring' }, title(`${r.label}: oracle ${pct1(r.oracle)}`));
    const text = r.value === null ? 'no interval' : `${pct1(r.value)} (n ${r.n})`;
    return el('g', {}, el('line', { x1: L, x2: W - R, y1: cy, y2: cy, class: 'grid' }), label(L - 8, cy + 4, r.label, { 'text-anchor': 'end' }), ring, dot, label(W - R + 8, cy + 4, text));
  });
  return svgFrame(W, H, name, band, el('line', { x1: x(nominal), x2: x(nominal), y1: T, y2: T + rows.length * rowH, class: 'nominal' }), ...marks,
    axisBottom(x, T + rows.length * rowH, niceTicks(lo, 1, 5), (v) => `${Math.round(v * 100)}%`, 'share of test prices inside the 80% interval'));
}

/** Histogram of ln(estimate / price) on `edges`, the ±10% band shaded; sales beyond the edges counted at the ends. */
export function errorHistogram(d: ErrorDistribution, edges: readonly number[]): string {
  const W = 330, H = 184, L = 44, R = 20, T = 36, B = 134;
  const x = linearScale([edges[0], edges[edges.length - 1]], [L, W - R]);
  const maxC = Math.max(1, ...d.counts);
  const y = linearScale([0, maxC], [B, T]);
  const bars = d.counts.map((c, i) => (c === 0 ? '' : el('rect', { x: x(edges[i]) + 0.5, y: y(c), width: Math.max(0.5, x(edges[i + 1]) - x(edges[i]) - 1), height: B - y(c), class: 'bar' }, title(`${edges[i].toFixed(2)} to ${edges[i + 1].toFixed(2)}: ${c}`))));
  const ppe = VALUATION_DISPLAY.v.ppe_band_frac;
  const band = el('rect', { x: x(Math.log(1 - ppe)), y: T, width: x(Math.log(1 + ppe)) - x(Math.log(1 - ppe)), height: B - T, class: 'target-band' });
  return svgFrame(W, H, `Signed log error, ${d.group}`, band, ...bars,
    el('line', { x1: x(0), x2: x(0), y1: T, y2: B, class: 'nominal' }),
    label(L, 14, `${d.group} (n ${d.n})`, { class: 'chart-title' }),
    label(L, 28, `beyond the axis: ${d.below} below ${edges[0].toFixed(1)}, ${d.above} above ${edges[edges.length - 1].toFixed(1)}`, { class: 'note' }),
    axisLeft(y, L, niceTicks(0, maxC, 3).filter((t) => Number.isInteger(t)), String, ''),
    axisBottom(x, B, niceTicks(edges[0], edges[edges.length - 1], 6), (v) => v.toFixed(1), 'ln(estimate / price)'));
}

/** One strip per group: the registry's error quantiles (default 5–95 whisker, 10–90 bar, 25–75 box, median tick) on a shared ln(estimate / price) axis. */
export function quantileStrips(groups: readonly ErrorDistribution[], limit: number): string {
  const W = 760, L = 210, R = 150, T = 10, rowH = 26;
  const H = T + groups.length * rowH + 44;
  const x = linearScale([-limit, limit], [L, W - R]);
  const clamp = (v: number): number => x(Math.max(-limit, Math.min(limit, v)));
  const rows = groups.map((g, i) => {
    const cy = T + i * rowH + rowH / 2;
    const q = new Map(g.quantiles.map((e) => [e.p, e.value]));
    const at = (p: number): number | undefined => q.get(p);
    // The registry's quantiles, outermost pair first: whisker, bar, box, then the median in the middle.
    const qs = REPORT_FIGURES.v.error_quantiles;
    const pair = (k: number): [number | undefined, number | undefined] => [at(qs[k]), at(qs[qs.length - 1 - k])];
    const [[p05, p95], [p10, p90], [p25, p75]] = [pair(0), pair(1), pair(2)];
    const p50 = at(qs[(qs.length - 1) / 2]);
    const name = label(L - 8, cy + 4, g.group, { 'text-anchor': 'end' });
    if (p50 === undefined) return el('g', {}, name, label(L + 4, cy + 4, 'no valued sales', { class: 'note' }));
    const parts = [
      p05 !== undefined && p95 !== undefined ? el('line', { x1: clamp(p05), x2: clamp(p95), y1: cy, y2: cy, class: 'whisker' }) : '',
      p10 !== undefined && p90 !== undefined ? el('rect', { x: clamp(p10), y: cy - 3, width: clamp(p90) - clamp(p10), height: 6, class: 'q-bar' }) : '',
      p25 !== undefined && p75 !== undefined ? el('rect', { x: clamp(p25), y: cy - 7, width: clamp(p75) - clamp(p25), height: 14, class: 'q-box' }) : '',
      el('line', { x1: clamp(p50), x2: clamp(p50), y1: cy - 9, y2: cy + 9, class: 'q-median' }),
    ];
    const tip = title(`${g.group}: ${g.quantiles.map((e) => `p${Math.round(e.p * 100)} ${e.value.toFixed(3)}`).join(', ')}`);
    return el('g', {}, tip, name, ...parts, label(W - R + 8, cy + 4, `median ${p50.toFixed(3)} (n ${g.n})`));
  });
  return svgFrame(W, H, 'Quantiles of the signed log error', el('line', { x1: x(0), x2: x(0), y1: T, y2: T + groups.length * rowH, class: 'nominal' }), ...rows,
    axisBottom(x, T + groups.length * rowH, niceTicks(-limit, limit, 6), (v) => v.toFixed(1), 'ln(estimate / price): 5–95, 10–90, 25–75, median'));
}

/** `missing`: what to write when `value` is null (default: not computed). */
export type MdapeGroup = { group: string; bars: Array<{ name: string; value: number | null; missing?: string }> };

/** MdAPE per group, one bar per estimator (model, oracle, naive); a missing one is written, not drawn. */
export function mdapeChart(groups: readonly MdapeGroup[]): string {
  const W = 760, L = 210, R = 120, T = 10, barH = 13, gap = 10;
  const names = [...new Set(groups.flatMap((g) => g.bars.map((b) => b.name)))];
  const groupH = names.length * barH + gap;
  const H = T + groups.length * groupH + 44;
  const max = Math.max(0.05, ...groups.flatMap((g) => g.bars.map((b) => b.value ?? 0)));
  const x = linearScale([0, max * 1.05], [L, W - R]);
  const rows = groups.map((g, i) => {
    const y0 = T + i * groupH;
    const bars = g.bars.map((b, j) => {
      const y = y0 + j * barH;
      if (b.value === null) return label(L + 4, y + barH - 3, `${b.name}: ${b.missing ?? 'not computed'}`, { class: 'note' });
      return el('g', {}, el('rect', { x: L, y: y + 1, width: x(b.value) - L, height: barH - 2, class: `bar est-${names.indexOf(b.name)}` }, title(`${g.group} ${b.name}: ${pct1(b.value)}`)), label(x(b.value) + 4, y + barH - 3, `${b.name} ${pct1(b.value)}`, { class: 'note' }));
    });
    return el('g', {}, label(L - 8, y0 + (names.length * barH) / 2 + 4, g.group, { 'text-anchor': 'end' }), ...bars);
  });
  return svgFrame(W, H, 'MdAPE of the model beside its baselines', ...rows, axisBottom(x, T + groups.length * groupH, niceTicks(0, max * 1.05, 5), (v) => `${Math.round(v * 1000) / 10}%`, 'MdAPE (median |estimate − price| / price)'));
}

export type ShareRow = { label: string; n: number; parts: ReadonlyArray<{ name: string; share: number }> };

/** One stacked bar per row: the shares of its sales by outcome (class `share-<name>`), written beside it with its n. */
export function shareChart(rows: readonly ShareRow[], name: string): string {
  const W = 760, L = 210, R = 190, T = 10, rowH = 24;
  const H = T + rows.length * rowH + 58; // axis, its title, then the legend line
  const x = linearScale([0, 1], [L, W - R]);
  const marks = rows.map((r, i) => {
    const cy = T + i * rowH + rowH / 2;
    let at = 0;
    const segs = r.parts.map((p) => {
      const seg = p.share > 0 ? el('rect', { x: x(at), y: cy - 8, width: x(at + p.share) - x(at), height: 16, class: `share-${p.name}` }) : '';
      at += p.share;
      return seg;
    });
    const text = r.parts.map((p) => `${p.name} ${pct1(p.share)}`).join(', ');
    const last = r.parts[r.parts.length - 1];
    return el('g', {}, title(`${r.label}: ${text} of ${r.n}`), label(L - 8, cy + 4, r.label, { 'text-anchor': 'end' }), ...segs, label(W - R + 8, cy + 4, `${last.name} ${pct1(last.share)} (n ${r.n})`));
  });
  const legend = label(L, H - 4, rows[0]?.parts.map((p) => p.name).join(' · ') ?? '', { class: 'note' });
  return svgFrame(W, H, name, ...marks, axisBottom(x, T + rows.length * rowH, niceTicks(0, 1, 5), (v) => `${Math.round(v * 100)}%`, 'share of the sales'), legend);
}
