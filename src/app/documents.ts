// The generated documents: OpenAPI, tool manifest and the /api/spec/*.json contracts, each built once per process
// (they depend only on code and the constants registry, which do not change while the service runs).

import { valuationContractDocument } from '../contracts/valuation-contract.js';
import { ERROR_CODES, ERROR_TAXONOMY_VERSION } from '../errors/codes.js';
import { constantsRegistryDocument } from '../registry/constants.js';
import { SCORING } from '../registry/groups/scoring.js';
import { FACTOR_KEYS, WeightsSchema } from '../scoring/weights.js';
import { buildManifest, toJson } from '../contracts/manifest.js';
import { buildOpenApi } from '../contracts/openapi.js';
import { recordedExample } from './openapi-examples.js';

function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

/** Factor weights, economics gates and caps, straight from the scoring constants group and weights schema. */
export function scoringContractDocument(): JsonDocument {
  const s = SCORING.v;
  return {
    version: `scoring@${SCORING.version}`,
    score: 'per-strategy inventory percentile (0-100) of the raw strategy score, computed only after the hard economic gates pass (INV-4)',
    factors: FACTOR_KEYS,
    default_weights: { flip: s.weights_flip, brrrr: s.weights_brrrr, hold: s.weights_hold, house_hack: [1] },
    caller_weights_schema: toJson(WeightsSchema, 'input'),
    economics_gates: {
      flip: { profit_margin_min: s.flip_min_margin_frac, max_offer_over_price_min: 1 },
      brrrr: { dscr_min: s.brrrr_min_dscr, cash_left_frac_max: s.brrrr_max_cash_left_frac },
      hold: { cash_on_cash_min: s.hold_min_coc, dscr_min: s.hold_min_dscr },
      house_hack: { owner_cost_to_rent_max: s.house_hack_max_cost_to_rent, noi_min: s.house_hack_min_noi_usd, dscr: 'not gated: the owner\'s unit pays no rent', fha_self_sufficiency: 'must pass when it applies (3-4 units)' },
    },
    economics_factor: { definition: 'smallest relative gate clearance / saturation, clamped to [0, 1]; 0 when any gate fails', saturation: s.economics_factor_saturation },
    factor_saturation: { margin_frac: s.margin_saturation_frac, flip_velocity_months_max: s.flip_velocity_months_max, dscr_range: s.dscr_factor_range, coc: s.coc_saturation },
    area_estimate_score_cap: s.area_estimate_score_cap,
    // The spec names coverage damping; the scoring constants group defines none in this build, so none is published.
    coverage_damping: null,
    constants: SCORING.entries,
  };
}

export function errorTaxonomyDocument(): JsonDocument {
  return {
    version: ERROR_TAXONOMY_VERSION,
    body: '{"error": {"code": <code>, "message": string, "request_id": string, "details"?: any}}',
    codes: Object.entries(ERROR_CODES).map(([code, e]) => ({ code, status: e.status, description: e.description })),
  };
}

/** A generated JSON document (OpenAPI, /api/spec/*.json). */
export type JsonDocument = Record<string, unknown>;

export function documentsOf() {
  return {
    openapi: once(() => buildOpenApi(recordedExample)),
    manifest: once(buildManifest),
    valuationContract: once(valuationContractDocument),
    scoringContract: once(scoringContractDocument),
    constantsRegistry: once(constantsRegistryDocument),
    errorTaxonomy: once(errorTaxonomyDocument),
  };
}
