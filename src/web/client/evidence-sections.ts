// The blocks of the evidence panel, one per part of a served valuation. Each block that shows a number ends with the
// answer's `disclosure`, verbatim (spec: consumers relay it wherever a human sees a number). What each block may show
// follows the display ladder's verdict (valuation.display): a range has no value and no midpoint, an area estimate
// carries its label as served, a suppression its reason, and the pro-forma appears only for a point.
import type { PriorSale } from '../../contracts/arv.js';
import type { Comp, CompRejection } from '../../contracts/comp.js';
import type { RiskReport } from '../../contracts/risk.js';
import type { Valuation, ValuationOutcome } from '../../contracts/valuation.js';
import { el, facts, table } from './evidence-dom.js';
import { factor, miles, score01, signedUsd, text, usd, usdRange } from './evidence-format.js';

export type SectionCtx = { doc: Document; disclosure: string | null };

/** A titled block; with `numbers`, the disclosure follows its content. */
export function block(ctx: SectionCtx, cls: string, title: string, numbers: boolean, ...content: Node[]): HTMLElement {
  const section = el(ctx.doc, 'section', { cls: `evidence-block ${cls}` }, el(ctx.doc, 'h3', { text: title }), ...content);
  if (numbers && ctx.disclosure !== null) section.append(el(ctx.doc, 'p', { cls: 'disclosure', text: ctx.disclosure }));
  return section;
}

/** The ladder's outcome as served; for a body without `display` (older answers), read from the arv fields. */
export function outcomeOf(v: Valuation): ValuationOutcome {
  if (v.display) return v.display.outcome;
  if (v.arv.value !== null && v.arv.range_only === false) return 'point';
  if (v.arv.low !== null && v.arv.high !== null) return v.arv.method_tier === 2 ? 'tier2_range' : 'range';
  return v.area_context ? 'area_context' : 'suppressed';
}

const confidence = (v: Valuation): string => text(v.arv.confidence_p10 ?? v.arv.confidence);

/** The value block: what the ladder lets a person see of this valuation, and nothing it does not. */
export function valueSection(ctx: SectionCtx, v: Valuation): HTMLElement {
  const { doc } = ctx;
  const a = v.arv;
  const outcome = outcomeOf(v);
  if (outcome === 'point' && a.value !== null) {
    const interval = a.low !== null && a.high !== null ? usdRange(a.low, a.high) : '—';
    return block(ctx, 'evidence-value outcome-point', 'After-repair value (point)', true,
      el(doc, 'p', { cls: 'headline', text: usd(a.value) }),
      facts(doc, 'evidence-facts', [
        [a.interval ? `${Math.round(a.interval.coverage * 100)}% interval` : 'interval', interval], ['confidence_p10', confidence(v)], ['method', a.method],
        ['comps', text(a.n_comps)], ['ladder step', text(a.ladder_step)], ['segment', text(a.segment)],
      ]));
  }
  if ((outcome === 'range' || outcome === 'tier2_range') && a.low !== null && a.high !== null) {
    return block(ctx, `evidence-value outcome-${outcome}`, outcome === 'range' ? 'After-repair value: range only' : 'Model range only (Tier 2)', true,
      el(doc, 'p', { cls: 'headline', text: usdRange(a.low, a.high) }),
      el(doc, 'p', { cls: 'note', text: 'No point value: the evidence supports a range, not a number inside it.' }),
      facts(doc, 'evidence-facts', [['range reason', text(a.range_reason)], ['confidence_p10', confidence(v)], ['method', a.method], ['comps', text(a.n_comps)], ['segment', text(a.segment)]]));
  }
  if (outcome === 'area_context' && v.area_context) {
    const ac = v.area_context;
    const range = ac.low != null && ac.high != null ? usdRange(ac.low, ac.high) : '—';
    return block(ctx, 'evidence-value outcome-area_context', 'Area estimate', true,
      el(doc, 'p', { cls: 'area-label', text: ac.label }),
      el(doc, 'p', { cls: 'headline', text: usd(ac.value) }),
      facts(doc, 'evidence-facts', [['area range', range], ['confidence', text(ac.confidence)], ['basis', text(ac.basis)], ['why no property value', text(a.suppression_reason)]]));
  }
  return block(ctx, 'evidence-value outcome-suppressed', 'No value', false,
    el(doc, 'p', { cls: 'headline suppression', text: `Cannot value this property: ${text(a.suppression_reason ?? v.display?.unscored_reason)}` }),
    el(doc, 'p', { cls: 'note', text: 'A refusal is the answer when the evidence is not strong enough; no number is shown in its place.' }));
}

const conditionText = (c: Comp): string => `${c.condition} (${c.condition_source}${c.condition_prob === null ? '' : `, p ${score01(c.condition_prob)}`})`;

/** Accepted comps with the adjustments that made their indexed, size-adjusted prices. */
export function compsSection(ctx: SectionCtx, comps: readonly Comp[]): HTMLElement {
  const rows = comps.map((c) => [
    c.pin, text(c.sale_date ?? c.sale_year), usd(c.price), factor(c.index_factor), usd(c.indexed_price), signedUsd(c.gla_adj),
    miles(c.dist_mi), text(c.sqft), text(c.beds), conditionText(c), score01(c.similarity),
  ]);
  const head = ['PIN', 'Sold', 'Price', 'Time index', 'Indexed price', 'Living-area adj.', 'Distance', 'Sq ft', 'Beds', 'Condition (source)', 'Similarity'];
  return block(ctx, 'evidence-comps', `Accepted comps (${comps.length})`, true, table(ctx.doc, 'comps-table', head, rows));
}

/**
 * The subject's own earlier sale and how far it moved the comps' value (arv.prior_sale). The carried price and the
 * comps' value are values of this property, so they appear only beside a point; a range shows the sale and the factor.
 */
export function priorSaleSection(ctx: SectionCtx, ps: PriorSale, point: boolean): HTMLElement {
  const pairs: Array<[string, string]> = [['sold', `${ps.sale_date} for ${usd(ps.price)} (${ps.condition_group === 'renovated' ? 'renovated or new' : 'not renovated'})`]];
  if (point && ps.carried_value !== null && ps.comps_value !== null) pairs.push(['carried to today', `${usd(ps.carried_value)} (county index ${factor(ps.index_factor)})`], ['comps alone', usd(ps.comps_value)]);
  pairs.push(['weight of the gap (fitted by the calibration)', score01(ps.weight)], ['applied to the comps', factor(ps.factor)]);
  // numbers either way (the earlier price, the factor): the disclosure follows, as under every number block
  return block(ctx, 'evidence-prior-sale', 'Its own earlier sale', true, facts(ctx.doc, 'evidence-facts', pairs));
}

/** Candidates the comp policy turned away, each with its reason. */
export function rejectedSection(ctx: SectionCtx, rejected: readonly CompRejection[]): HTMLElement {
  const rows = rejected.map((r) => [r.pin, r.reason, text(r.sale_date), usd(r.price), miles(r.dist_mi)]);
  return block(ctx, 'evidence-rejected', `Rejected comps (${rejected.length})`, true, table(ctx.doc, 'rejected-table', ['PIN', 'Reason', 'Sold', 'Price', 'Distance'], rows));
}

/** The risk report: score, band and every flag with its reason (flagged ones first). */
export function riskSection(ctx: SectionCtx, risk: RiskReport): HTMLElement {
  const flags = [...risk.flags].sort((x, y) => Number(y.flagged) - Number(x.flagged));
  const list = el(ctx.doc, 'ul', { cls: 'risk-flags' }, ...flags.map((f) =>
    el(ctx.doc, 'li', { cls: f.flagged ? 'flagged' : 'clear', text: `${f.code}: ${f.flagged ? 'flagged' : 'not flagged'} — ${f.reason}` })));
  return block(ctx, 'evidence-risk', 'Risk flags', true, el(ctx.doc, 'p', { cls: 'headline', text: `Risk ${risk.score} (${risk.band})` }), list);
}

/** Rent, rehab, tax and the income cross-check: only for a point-actionable valuation (the caller checks). */
export function proFormaSection(ctx: SectionCtx, v: Valuation): HTMLElement {
  const pairs: Array<[string, string]> = [
    ['rent as-is (monthly)', usd(v.rent.market)], ['rent after rehab (monthly)', usd(v.rent.reno)], ['Section 8 rent (monthly)', usd(v.rent.s8)],
    ['rehab estimate', `${usd(v.rehab.estimate)} (${v.rehab.scope})`], ['property tax now (yearly)', usd(v.tax.current_annual)],
    ['property tax forward (yearly)', usd(v.tax.predictive_annual)],
  ];
  if (v.noi_implied_value != null) pairs.push(['income-approach value (cross-check)', usd(v.noi_implied_value)]);
  return block(ctx, 'evidence-proforma', 'Pro-forma inputs', true, facts(ctx.doc, 'evidence-facts', pairs));
}
