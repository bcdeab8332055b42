// App-local evidence panel for the MCP App: the ladder-respecting summary of a get_comps or deep_underwrite_asset
// answer and its comp lists. A stand-in with the agreed shared names (EvidenceView, CompPoint, LngLat) until PANEL's
// evidence-panel.ts (renderEvidence over the REST /api/property body) is merged; the lead swaps the valuation part
// for renderEvidence(root, answer.valuation) then. Text only through textContent: nothing from a result is parsed as HTML.

export type { CompPoint, EvidenceView, LngLat } from './app-shared-types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
/** Money as the service rounded it (the ladder rounds before it answers); the page only adds separators. */
const money = (v: unknown): string => (num(v) === null ? '—' : `$${(v as number).toLocaleString('en-US')}`);

function el(tag: string, text?: string, cls?: string): HTMLElement {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

/** One valuation block in the order of the display ladder: refusal, suppression, area context, range, point. */
type Ladder = { outcome: string | null; value: unknown; low: unknown; high: unknown; suppression: unknown; rangeReason: unknown; areaLabel: unknown; areaValue: unknown; refusal: unknown };

function ladderOf(tool: string, a: Obj): Ladder {
  if (tool === 'get_comps') {
    const iv = isObj(a.interval) ? a.interval : {};
    return { outcome: typeof a.outcome === 'string' ? a.outcome : null, value: a.value, low: iv.low, high: iv.high, suppression: a.suppression_reason, rangeReason: a.range_reason, areaLabel: null, areaValue: null, refusal: a.refusal };
  }
  const v = isObj(a.valuation) ? a.valuation : {};
  const arv = isObj(v.arv) ? v.arv : {};
  const display = isObj(v.display) ? v.display : {};
  const area = isObj(v.area_context) ? v.area_context : {};
  return { outcome: typeof display.outcome === 'string' ? display.outcome : null, value: arv.value, low: arv.low, high: arv.high, suppression: arv.suppression_reason, rangeReason: null, areaLabel: area.label, areaValue: area.value, refusal: a.refusal };
}

function renderLadder(root: HTMLElement, l: Ladder): void {
  if (isObj(l.refusal)) {
    root.append(el('p', `Refused (${String(l.refusal.code)}): ${String(l.refusal.message)}`, 'refusal'));
    return;
  }
  if (l.outcome === 'suppressed') root.append(el('p', `No value: ${typeof l.suppression === 'string' ? l.suppression : 'suppressed'}`, 'suppressed'));
  else if (l.outcome === 'area_context') {
    // The area estimate is shown only under its label, verbatim (it is not a valuation of this property).
    if (typeof l.areaLabel === 'string') root.append(el('p', `${l.areaLabel}: ${money(l.areaValue)}`, 'area'));
    else root.append(el('p', 'Area context only: no value for this property', 'area'));
  } else if (l.outcome === 'range' || l.outcome === 'tier2_range') {
    // A range shows its ends only: no midpoint is drawn or written.
    root.append(el('p', `Range ${money(l.low)} – ${money(l.high)}`, 'range'));
    if (typeof l.rangeReason === 'string') root.append(el('p', `Why a range: ${l.rangeReason}`, 'muted'));
  } else if (l.outcome === 'point' && num(l.value) !== null) {
    root.append(el('p', `Value ${money(l.value)}`, 'point'));
    if (num(l.low) !== null && num(l.high) !== null) root.append(el('p', `Interval ${money(l.low)} – ${money(l.high)}`, 'muted'));
  } else root.append(el('p', `Outcome: ${l.outcome ?? 'not given'}`, 'muted'));
}

function compList(title: string, rows: unknown, line: (c: Obj) => string): HTMLElement {
  const box = el('details');
  const list = Array.isArray(rows) ? rows.filter(isObj) : [];
  box.append(el('summary', `${title} (${list.length})`));
  const ul = el('ul');
  for (const c of list) ul.append(el('li', line(c)));
  box.append(ul);
  return box;
}

const pct = (v: unknown): string => (num(v) === null ? '—' : `${(((v as number) - 1) * 100).toFixed(1)}%`);

/** Renders the evidence of one answer into `root` (replacing what was there). */
export function renderToolEvidence(root: HTMLElement, tool: string, answer: Obj): void {
  root.replaceChildren();
  root.append(el('h2', tool === 'get_comps' ? 'Comparable sales' : 'Underwriting evidence'));
  renderLadder(root, ladderOf(tool, answer));
  const v = isObj(answer.valuation) ? answer.valuation : {};
  const artifact = isObj(v.artifact) ? v.artifact : {};
  const accepted = tool === 'get_comps' ? answer.comps_used : (artifact.comps_used ?? (isObj(v.arv) ? v.arv.comps : undefined));
  const rejected = tool === 'get_comps' ? answer.comps_rejected : artifact.comps_rejected;
  root.append(
    compList('Accepted comps', accepted, (c) => `${String(c.pin)} · ${money(c.price)} · time index ${pct(c.index_factor)} · size adj ${money(c.gla_adj)} · ${num(c.dist_mi)?.toFixed(2) ?? '—'} mi`),
    compList('Rejected comps', rejected, (c) => `${String(c.pin)} · ${String(c.reason)} · ${money(c.price)}`),
  );
  if (typeof answer.disclosure === 'string') root.append(el('p', answer.disclosure, 'disclosure'));
}

/** A short message in the panel (errors, empty results, what a controller did), with the disclosure when given. */
export function renderNote(root: HTMLElement, title: string, text: string, disclosure?: unknown): void {
  root.replaceChildren(el('h2', title), el('p', text));
  if (typeof disclosure === 'string') root.append(el('p', disclosure, 'disclosure'));
}
