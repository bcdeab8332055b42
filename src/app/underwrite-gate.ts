// Before underwriting: units (and, for the v1 tool and REST, price) come from the input or a matching listing.
// When they stay unknown the answer is a refusal (`units_required` / `price_required`), a value, not an error:
// the spec lists it among outcomes a client must not retry or replace with a number.
import type { Refusal } from '../contracts/common.js';
import type { ResolvedSubject } from '../contracts/operation-deps.js';
import type { UnderwriteAnswer } from '../contracts/tools.js';
import { DISCLOSURE } from '../contracts/valuation.js';
import { MODEL_VERSIONS } from '../registry/versions.js';
import type { Strategy } from '../underwriting/types.js';
import type { ListingRecord } from '../ingest/loaders/listings.js';
import { matchListing, type SubjectKey } from './listing-match.js';

export type GateResult = { ok: true; subject: ResolvedSubject } | { ok: false; refusal: Refusal };

export function resolveSubject(rows: readonly ListingRecord[], s: SubjectKey & { units?: number; price?: number }, needPrice: boolean): GateResult {
  const listing = s.units !== undefined && (!needPrice || s.price !== undefined) ? null : matchListing(rows, s);
  const units = s.units ?? listing?.units ?? null;
  const priceUsd = s.price ?? listing?.price_usd ?? null;
  if (units === null || !Number.isInteger(units) || units < 1 || units > 4) {
    return { ok: false, refusal: { code: 'units_required', message: 'units_required: the unit count (1-4) is unknown and no matching listing supplies it; pass units' } };
  }
  if (needPrice && (priceUsd === null || !(priceUsd > 0))) {
    return { ok: false, refusal: { code: 'price_required', message: 'price_required: a positive price is needed and no matching listing supplies it; pass price' } };
  }
  return { ok: true, subject: { units, priceUsd, listingId: listing?.listing_id ?? null } };
}

/** The refusal as a complete tool answer: every economics field null, the accepted inputs echoed. */
export function refusalAnswer(refusal: Refusal, strategy: Strategy, echo: Record<string, unknown>, now: Date): UnderwriteAnswer {
  return {
    as_of: now.toISOString(),
    model_versions: { ...MODEL_VERSIONS },
    confidence: null,
    disclosure: DISCLOSURE,
    refusal,
    valuation: null,
    strategy,
    unscored_reason: null,
    offers: null,
    dscr: null,
    returns: null,
    strategy_scores: null,
    cashflow_projection: null,
    assumptions: echo,
  };
}
