// Hand-drawn SVG for the calibration report page: escaping, an element builder, linear and band scales, ticks, axes.
// Why by hand and not a plotting library: the page has a few fixed chart types (points on a square, horizontal bars,
// histograms, quantile strips) rendered server-side into a string the service can also serve; the maintained
// plotting libraries (d3, Observable Plot, Vega) draw into a DOM, which Node would need a DOM emulation for: a large
// dependency for a few dozen lines of geometry. Every element goes through `el`, which escapes text and attribute
// values, so tags balance and no datum can become markup.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or an attribute value made inert in HTML and SVG (the five XML-significant characters). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ENTITIES[ch]);
}

export type Attrs = Record<string, string | number | null | undefined>;

/** A coordinate or size: at most 2 decimals, no trailing zeros (short, stable markup). */
export const coord = (x: number): string => String(Math.round(x * 100) / 100);

/** `<tag attrs>children</tag>`; children are already-built markup (use escapeHtml or `text` for data). Null/undefined attributes are left out. */
export function el(tag: string, attrs: Attrs = {}, ...children: string[]): string {
  const a = Object.entries(attrs)
    .filter((e): e is [string, string | number] => e[1] !== null && e[1] !== undefined)
    .map(([k, v]) => ` ${k}="${escapeHtml(typeof v === 'number' ? coord(v) : v)}"`)
    .join('');
  return `<${tag}${a}>${children.join('')}</${tag}>`;
}

/** An SVG <text> with escaped content. */
export const label = (x: number, y: number, s: string, attrs: Attrs = {}): string => el('text', { x, y, ...attrs }, escapeHtml(s));

/** A hover title (SVG's own tooltip, no script). */
export const title = (s: string): string => el('title', {}, escapeHtml(s));

export type LinearScale = { (v: number): number; domain: readonly [number, number]; range: readonly [number, number] };

/** Maps [d0, d1] onto [r0, r1] linearly (values outside extrapolate; callers clamp what they draw). */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): LinearScale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  const f = ((v: number) => r0 + (v - d0) * k) as LinearScale;
  return Object.assign(f, { domain, range });
}

/** Evenly spaced ticks in [lo, hi] on a 1, 2 or 5 × 10^k step giving about `count` of them. */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo) || count < 1) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step) out.push(Number(t.toFixed(10)) || 0); // `|| 0`: no -0 label
  return out;
}

/** Positions of `keys` as equal bands over [r0, r1]; `inner` = fraction of each band the mark fills. */
export function bandScale(keys: readonly string[], range: readonly [number, number], inner = 0.7): { at: (k: string) => number; bandwidth: number } {
  const step = keys.length ? (range[1] - range[0]) / keys.length : 0;
  const index = new Map(keys.map((k, i) => [k, i]));
  return { at: (k) => range[0] + (index.get(k) ?? 0) * step + (step * (1 - inner)) / 2, bandwidth: step * inner };
}

/** Horizontal axis at pixel row `y`: line, ticks, tick labels and a centred title below. */
export function axisBottom(x: LinearScale, y: number, ticks: readonly number[], fmt: (v: number) => string, name: string): string {
  const [a, b] = x.range;
  const marks = ticks.map((t) => el('g', {}, el('line', { x1: x(t), x2: x(t), y1: y, y2: y + 5, class: 'tick' }), label(x(t), y + 17, fmt(t), { 'text-anchor': 'middle' })));
  return el('g', { class: 'axis' }, el('line', { x1: a, x2: b, y1: y, y2: y, class: 'domain' }), ...marks, label((a + b) / 2, y + 34, name, { 'text-anchor': 'middle', class: 'axis-title' }));
}

/** Vertical axis at pixel column `x`: line, ticks, tick labels and a rotated title on the left. */
export function axisLeft(yScale: LinearScale, x: number, ticks: readonly number[], fmt: (v: number) => string, name: string): string {
  const [a, b] = yScale.range;
  const marks = ticks.map((t) => el('g', {}, el('line', { x1: x - 5, x2: x, y1: yScale(t), y2: yScale(t), class: 'tick' }), label(x - 8, yScale(t) + 4, fmt(t), { 'text-anchor': 'end' })));
  const mid = (a + b) / 2;
  return el('g', { class: 'axis' }, el('line', { x1: x, x2: x, y1: a, y2: b, class: 'domain' }), ...marks, label(x - 42, mid, name, { 'text-anchor': 'middle', class: 'axis-title', transform: `rotate(-90 ${coord(x - 42)} ${coord(mid)})` }));
}

/** A self-contained <svg> with a viewBox (scales with the page) and an accessible name. */
export function svgFrame(width: number, height: number, name: string, ...children: string[]): string {
  return el('svg', { xmlns: 'http://www.w3.org/2000/svg', viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': name, class: 'chart' }, title(name), ...children);
}
