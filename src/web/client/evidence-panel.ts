// The evidence panel (issue 15 item 3): the valuation the REST door serves for a listing or a clicked point
// (GET /api/property), rendered as served — the ladder's value block, accepted comps with their adjustments, rejected
// ones with their reasons, the risk flags, the pro-forma only for a point, the disclosure under every number block —
// and the comps' locations handed back so the map can draw them. Browser code: DOM only, no framework.
import type { CompRejection, Comp } from '../../contracts/comp.js';
import type { Refusal } from '../../contracts/common.js';
import type { RiskReport } from '../../contracts/risk.js';
import type { Valuation, ValuationOutcome } from '../../contracts/valuation.js';
import { el } from './evidence-dom.js';
import type { CompPoint, EvidenceView, LngLat } from './evidence-view.js';
import { text, usd } from './evidence-format.js';
import { block, compsSection, outcomeOf, priorSaleSection, proFormaSection, rejectedSection, riskSection, valueSection, type SectionCtx } from './evidence-sections.js';

export type { CompPoint, EvidenceView, LngLat };

/** A clicked point may name the unit count (a point off every parcel record needs one: units_required otherwise). */
export type EvidenceTarget = { property_id: string } | (LngLat & { units?: number });

/**
 * GET /api/property on the page's own origin; the JSON body whatever the status (an error body renders as a message).
 * A body that is not JSON, or no answer at all, comes back as a client-side error body (code `http_<status>` or
 * `network_error`): those codes are the browser's, not the service's taxonomy.
 */
export async function fetchEvidence(target: EvidenceTarget, key?: string): Promise<unknown> {
  const q = new URLSearchParams();
  if ('property_id' in target) q.set('property_id', target.property_id);
  else {
    q.set('lat', String(target.lat));
    q.set('lon', String(target.lon));
    if (target.units !== undefined) q.set('units', String(target.units));
  }
  let res: Response;
  try {
    res = await fetch(`/api/property?${q.toString()}`, { headers: key ? { Authorization: `Bearer ${key}` } : {}, credentials: 'same-origin' });
  } catch (e) {
    return { error: { code: 'network_error', message: `the service did not answer: ${e instanceof Error ? e.message : String(e)}` } };
  }
  const body = await res.text();
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return { error: { code: `http_${res.status}`, message: `the service answered HTTP ${res.status} without a JSON body` } };
  }
}

type ErrorAnswer = { error: { code: string; message: string; request_id?: string } };
type Answer = { property?: unknown; investor?: { valuation: Valuation | null; risk: RiskReport | null }; refusal?: Refusal | null; disclosure?: string };

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isErrorAnswer = (x: unknown): x is ErrorAnswer => isObject(x) && isObject(x.error) && typeof x.error.code === 'string';
const isLngLat = (x: unknown): x is LngLat => isObject(x) && typeof x.lat === 'number' && typeof x.lon === 'number';

/** The valuation of a /api/property body, or of an /api/underwrite body (the valuation object at the top). */
function valuationOf(a: Answer & Record<string, unknown>): Valuation | null {
  if (isObject(a.investor)) return a.investor.valuation ?? null;
  return isObject(a.arv) ? (a as unknown as Valuation) : null;
}

/** The display-ladder outcome of an answer (for the page's analytics), or null when it carries no valuation. */
export function ladderOutcomeOf(answer: unknown): ValuationOutcome | null {
  return isObject(answer) && !isErrorAnswer(answer) ? (valuationOf(answer as Answer & Record<string, unknown>)?.display?.outcome ?? null) : null;
}

const compPoint = (c: Comp): CompPoint => ({ lat: c.lat, lon: c.lon, pin: c.pin, label: `${c.pin} · ${usd(c.price)} · ${text(c.sale_date ?? c.sale_year)}` });
const rejectedPoint = (r: CompRejection): CompPoint => ({ lat: r.lat, lon: r.lon, pin: r.pin, label: `${r.pin} · rejected: ${r.reason}` });

function renderError(root: HTMLElement, e: ErrorAnswer['error']): EvidenceView {
  const doc = root.ownerDocument;
  const id = e.request_id ? ` (request ${e.request_id})` : '';
  root.append(el(doc, 'div', { cls: 'evidence-error', attrs: { role: 'alert' } },
    el(doc, 'p', { cls: 'error-code', text: `Error: ${e.code}` }), el(doc, 'p', { cls: 'error-message', text: `${e.message}${id}` })));
  return { subject: null, accepted: [], rejected: [] };
}

/** Renders `answer` (a /api/property body or an error body) into `root`, replacing what was there. */
export function renderEvidence(root: HTMLElement, answer: unknown): EvidenceView {
  root.replaceChildren();
  if (isErrorAnswer(answer)) return renderError(root, answer.error);
  if (!isObject(answer)) return renderError(root, { code: 'unreadable_answer', message: 'the answer is not a property record' });
  const a = answer as Answer & Record<string, unknown>;
  const v = valuationOf(a);
  const disclosure = typeof a.disclosure === 'string' ? a.disclosure : (v?.disclosure ?? null);
  const ctx: SectionCtx = { doc: root.ownerDocument, disclosure };
  const subject = v?.subject ?? a.property;
  const view: EvidenceView = { subject: isLngLat(subject) ? { lat: subject.lat, lon: subject.lon } : null, accepted: [], rejected: [] };
  const panel = el(ctx.doc, 'div', { cls: 'evidence-panel' });
  root.append(panel);
  if (isObject(subject)) panel.append(subjectLine(ctx, subject));
  if (a.refusal) {
    panel.append(block(ctx, 'evidence-refusal', 'No valuation', false, el(ctx.doc, 'p', { cls: 'headline refusal', text: `${a.refusal.message} (${a.refusal.code})` })));
    if (disclosure !== null) panel.append(el(ctx.doc, 'p', { cls: 'disclosure', text: disclosure }));
  }
  if (!v) return view;
  panel.append(valueSection(ctx, v));
  const comps = v.arv.comps ?? [];
  const rejected = v.artifact?.comps_rejected ?? [];
  if (comps.length > 0) panel.append(compsSection(ctx, comps));
  if (v.arv.prior_sale) panel.append(priorSaleSection(ctx, v.arv.prior_sale, outcomeOf(v) === 'point'));
  if (rejected.length > 0) panel.append(rejectedSection(ctx, rejected));
  const risk = isObject(a.investor) ? a.investor.risk : ((a.risk as RiskReport | null | undefined) ?? null);
  if (risk) panel.append(riskSection(ctx, risk));
  if (v.display?.point_actionable === true && v.arv.range_only === false && v.arv.value !== null) panel.append(proFormaSection(ctx, v));
  view.accepted = comps.map(compPoint);
  view.rejected = rejected.map(rejectedPoint);
  return view;
}

/** Which property this is: address or key, county, tract, units, beds, sqft (inputs, not estimates). */
function subjectLine(ctx: SectionCtx, s: Record<string, unknown>): HTMLElement {
  const parts = [s.address ?? s.key, s.county, s.tract_geoid ? `tract ${String(s.tract_geoid)}` : null, s.units ? `${String(s.units)} unit(s)` : null,
    s.beds != null ? `${String(s.beds)} beds` : null, s.sqft ? `${String(s.sqft)} sq ft` : null].filter((p) => p != null && p !== '');
  return el(ctx.doc, 'header', { cls: 'evidence-subject' }, el(ctx.doc, 'h2', { text: parts.map(String).join(' · ') || 'Property' }));
}
