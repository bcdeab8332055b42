// The stored listing row of the listings run (what /api/listings/chicago and inventory search read): the feed record
// plus model_version, valuation summary, per-strategy percentiles, deal_score (null = unscored), reasons, provenance.
import type { ScoredRow as AlertRow } from '../alerts/payload.js';
import type { ListingRecord } from '../ingest/loaders/listings.js';
import { MODEL_VERSIONS } from '../registry/versions.js';
import { dealScore } from '../scoring/percentile.js';
import type { Strategy } from '../underwriting/types.js';
import { AS_IS_EXCEEDS_ARV_WARNING } from '../valuation/comps/as-is-check.js';
import type { EconomicsSummary, GateFailure, SubjectScore } from '../scoring/score-subject.js';

/** Run status of a feed row: active (in the ≤200 scored inventory), duplicate (of another address), overflow (past 200). */
export type RunStatus = 'active' | 'duplicate' | 'overflow';

export type ScoredListing = ListingRecord & {
  /** The feed's own status; `status` is the run's (health counts `status === 'active'`). */
  feed_status: string;
  duplicate_of: string | null;
  model_version: string | null;
  scored_at: string;
  first_seen_at: string;
  valuation: Omit<SubjectScore, 'id' | 'raw' | 'null_reasons' | 'gate_failures' | 'economics' | 'error'>;
  /** Flat copies the doors' inventory eligibility reads (src/http/deps/inventory.ts ScoredListingSchema). */
  point_actionable: boolean;
  confidence: number | null;
  arv: number | null;
  strategy_scores: Record<Strategy, number | null> | null;
  percentiles: Record<Strategy, number | null>;
  /** Raw strategy scores behind the percentiles (null = unscored or gated out): the population a single answer is placed in. */
  raw_scores: Record<Strategy, number | null>;
  deal_score: number | null;
  best_strategy: Strategy | null;
  score_basis: 'point' | 'area_estimate' | null;
  /** Investor targets of the best strategy (offers, DSCR, CoC): null unless the valuation is a point. */
  investor_targets: EconomicsSummary | null;
  /** Why each strategy has no percentile (unscored reason or `gated_out`); null where it has one. */
  strategy_null_reasons: Record<Strategy, string | null>;
  /**
   * The gate checks behind each `gated_out`: metric, value, threshold, direction ([] where the gates passed, null where
   * none ran). Absent on rows stored before it existed.
   */
  strategy_gate_failures?: Record<Strategy, GateFailure[] | null>;
  /** Human-readable reasons behind deal_score (or behind its absence). */
  reasons: string[];
  provenance: { run_id: string; run_kind: 'daily' | 'manual'; inputs_hash: string | null; error: { code: string; message: string } | null; dedupe_key: string };
};

const usd = (x: number): string => `$${Math.round(x).toLocaleString('en-US')}`;

/** The valuation warnings a reader of the row should see: as_is_exceeds_arv, with the two amounts it compared. */
function warningReasons(s: SubjectScore): string[] {
  if (!(s.warnings ?? []).includes(AS_IS_EXCEEDS_ARV_WARNING)) return [];
  const arv = s.point_actionable ? s.arv_value : s.arv_high;
  const what = s.point_actionable ? 'ARV' : 'the top of the ARV range';
  return [s.value_as_is !== null && arv !== null ? `valuation warning ${AS_IS_EXCEEDS_ARV_WARNING}: as-is ${usd(s.value_as_is)} is above ${what} ${usd(arv)}` : `valuation warning ${AS_IS_EXCEEDS_ARV_WARNING}`];
}

/** A gate metric or threshold in words: ratios to two decimals, money-sized numbers to whole units. */
export const gateNumber = (x: number): string => (Math.abs(x) >= 100 ? String(Math.round(x)) : String(Number(x.toFixed(2))));
const num = gateNumber;

/** " (dscr 1 below 1.2; noi -4435 below 0)" for a gated-out strategy; empty without stored checks. */
function gateDetail(failures: GateFailure[] | null | undefined): string {
  if (!failures || failures.length === 0) return '';
  const one = (f: GateFailure): string => (f.value === null ? `${f.metric} not evaluable` : `${f.metric} ${num(f.value)} ${f.direction === 'min' ? 'below' : 'above'} ${num(f.threshold)}`);
  return ` (${failures.map(one).join('; ')})`;
}

function reasonsOf(s: SubjectScore, pct: Record<Strategy, number | null>, best: Strategy | null): string[] {
  if (s.error) return [`valuation failed: ${s.error.code}`];
  if (!s.point_actionable) return [`unscored: ${s.unscored_reason ?? 'valuation_not_point'} (valuation outcome ${s.outcome ?? 'unknown'})`, ...warningReasons(s)];
  const out: string[] = [];
  if (best !== null) out.push(`best strategy ${best} at inventory percentile ${(pct[best] as number).toFixed(1)}`);
  for (const [k, r] of Object.entries(s.null_reasons)) if (r !== null) out.push(`${k}: ${r}${gateDetail(s.gate_failures?.[k as Strategy])}`);
  return [...out, ...warningReasons(s)];
}

export type RowParts = {
  listing: ListingRecord;
  score: SubjectScore;
  percentiles: Record<Strategy, number | null>;
  runId: string;
  runKind: 'daily' | 'manual';
  scoredAt: string;
  firstSeenAt: string;
  dedupeKey: string;
};

export function buildScoredListing(p: RowParts): ScoredListing {
  const { score: s } = p;
  const basis = s.point_actionable ? 'point' : null;
  const d = basis ? dealScore(p.percentiles, basis) : { deal_score: null, score_basis: null, best_strategy: null };
  const { id: _id, raw, null_reasons, gate_failures, economics, error, ...valuation } = s;
  return {
    ...p.listing,
    feed_status: (p.listing as Partial<ScoredListing>).feed_status ?? p.listing.status,
    status: 'active',
    duplicate_of: null,
    model_version: s.model_version,
    scored_at: p.scoredAt,
    first_seen_at: p.firstSeenAt,
    valuation,
    point_actionable: s.point_actionable,
    confidence: s.arv_confidence,
    arv: s.point_actionable ? s.arv_value : null,
    strategy_scores: s.point_actionable ? p.percentiles : null,
    percentiles: p.percentiles,
    raw_scores: raw,
    deal_score: d.deal_score,
    best_strategy: d.best_strategy,
    score_basis: d.score_basis,
    investor_targets: d.best_strategy ? economics[d.best_strategy] : null,
    strategy_null_reasons: null_reasons,
    strategy_gate_failures: gate_failures,
    reasons: reasonsOf(s, p.percentiles, d.best_strategy),
    provenance: { run_id: p.runId, run_kind: p.runKind, inputs_hash: s.inputs_hash, error, dedupe_key: p.dedupeKey },
  };
}

/**
 * Whether a stored row rests on a point valuation: point-actionable and not scored on an area estimate. A point row
 * whose every strategy gated out has no best strategy, so its score_basis is null: it is still point-supported.
 */
export function isPointSupportedRow(r: Pick<ScoredListing, 'valuation' | 'score_basis'>): boolean {
  return r.valuation?.point_actionable === true && (r.score_basis === null || r.score_basis === 'point');
}

/** The alert matcher's row; only point-actionable rows with a displayed ARV and confidence can match: only those go. */
export function alertRowOf(r: ScoredListing): AlertRow | null {
  const v = r.valuation;
  if (!v.point_actionable || v.arv_value === null || v.arv_method === null || v.arv_confidence === null) return null;
  return {
    listing_id: r.listing_id, address: r.address, zip: r.zip, price: r.price_usd, url: r.url, lat: r.lat, lon: r.lon,
    point_actionable: true, percentiles: r.percentiles, confidence: v.arv_confidence, arv: v.arv_value, arv_method: v.arv_method,
    model_versions: { ...MODEL_VERSIONS, model: r.model_version ?? MODEL_VERSIONS.model },
  };
}
