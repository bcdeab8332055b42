// Output schemas of the operations (REST bodies and MCP structuredContent). Every numeric answer extends
// AnswerMetaSchema; every valuation payload carries `disclosure`. Refusals and unscored rows are values here.
import { z } from 'zod';
import { TractRecordSchema } from './tracts.js';
import { DISCLOSURE, UnscoredReasonSchema, ValuationSchema } from './valuation.js';
import { AnswerMetaSchema, RefusalSchema, StrategySchema } from './common.js';

const Json = z.record(z.string(), z.unknown());
const DisclosureSchema = z.literal(DISCLOSURE);

/** One inventory row; every field optional because `fields` may select a subset. */
export const InventoryRowSchema = z.looseObject({
  listing_id: z.string().optional(),
  address: z.string().optional(),
  zip: z.string().optional(),
  price: z.number().optional(),
  url: z.string().optional(),
  lat: z.number().optional(),
  lon: z.number().optional(),
  units: z.number().nullable().optional(),
  percentile: z.number().min(0).max(100).optional(),
  deal_score: z.number().nullable().optional(),
  confidence: z.number().nullable().optional(),
  model_version: z.string().nullable().optional(),
  arv: z.number().nullable().optional(),
  strategy_scores: Json.nullable().optional(),
});
export type InventoryRow = z.infer<typeof InventoryRowSchema>;

export const InventorySearchOutputSchema = AnswerMetaSchema.extend({
  strategy: StrategySchema,
  results: z.array(InventoryRowSchema),
  total: z.number().int().nonnegative().describe('rows matching the filters, all pages'),
  next_cursor: z.string().nullable().describe('pass as `cursor` for the next page; null on the last page'),
  empty_reason: z.string().nullable().describe('why the result is empty: filters too tight; the daily run has not populated scored inventory; or what the scored listings were (without a point valuation, stale, gated out for the strategy and by which gate checks)'),
  disclosure: DisclosureSchema,
});
export type InventorySearchOutput = z.infer<typeof InventorySearchOutputSchema>;

export const TopTractSchema = z.object({ geoid: z.string(), muni: z.string().nullable(), score: z.number() });
export const SearchDealsOutputSchema = InventorySearchOutputSchema.omit({ next_cursor: true }).extend({
  min_score_applied: z.number().nullable().describe('the score cutoff used (the live top-quartile cutoff when min_score is omitted)'),
  top_tracts: z.array(TopTractSchema),
  deprecated: z.literal(true),
  replacement: z.literal('search_investment_inventory'),
});

/** Result of the underwriting tools: the valuation plus point-only economics, or a refusal. */
export const UnderwriteAnswerSchema = AnswerMetaSchema.extend({
  disclosure: DisclosureSchema,
  refusal: RefusalSchema.nullable(),
  valuation: ValuationSchema.nullable(),
  strategy: StrategySchema,
  unscored_reason: z.union([UnscoredReasonSchema, z.string()]).nullable(),
  offers: Json.nullable(),
  dscr: z.number().nullable(),
  returns: Json.nullable(),
  strategy_scores: Json.nullable(),
  cashflow_projection: z.array(Json).nullable().describe('yearly: rent +2%/yr, opex +2.5%/yr'),
  assumptions: Json.describe('every accepted assumption echoed, caller-supplied or default'),
});
export type UnderwriteAnswer = z.infer<typeof UnderwriteAnswerSchema>;

/** GET /api/underwrite: one valuation object with the underwrite extras, or a refusal answer. */
export const UnderwriteRestOutputSchema = z.union([
  ValuationSchema.extend({
    tract: Json.nullable().optional(),
    arv_source: z.string().nullable().optional(),
    // Spec (legacy summary fields): base, conservative, aggressive plus the comps used; absent when the gates refuse.
    comp_arv: z.object({ base: z.number().nullable(), conservative: z.number().nullable(), aggressive: z.number().nullable(), comps: z.array(Json).nullable().optional() }).optional(),
    risk: Json.nullable().optional(),
    underwrite: Json.nullable().optional(),
    read: z.string().optional(),
  }),
  AnswerMetaSchema.extend({ disclosure: DisclosureSchema, refusal: RefusalSchema }),
]);

/** Loose: the engine's extra evidence (outcome, reasons, subject, flip pairs) passes through. */
export const CompsOutputSchema = z.looseObject({
  ...AnswerMetaSchema.shape,
  disclosure: DisclosureSchema,
  refusal: RefusalSchema.nullable(),
  method: z.string().nullable(),
  tier: z.number().int().nullable(),
  interval: z.object({ low: z.number(), high: z.number() }).nullable(),
  dispersion: z.number().nullable(),
  comps_used: z.array(Json),
  comps_rejected: z.array(Json),
});

export const TractReportOutputSchema = AnswerMetaSchema.extend({
  tract: TractRecordSchema,
  signals: z.array(z.object({ name: z.string(), value: z.union([z.number(), z.string()]).nullable(), label: z.string() })),
  note: z.string(),
});
export type TractReportOutput = z.infer<typeof TractReportOutputSchema>;

export const MarketPulseOutputSchema = AnswerMetaSchema.extend({
  metro: z.literal('chicago'),
  top_tracts: z.record(StrategySchema, z.array(TopTractSchema)),
  section8_zips: z.array(Json),
  reassessment_shock_leaders: z.array(Json),
  vintages: Json,
});

export const RiskReportOutputSchema = AnswerMetaSchema.extend({
  risk_score: z.number().min(0).max(100).nullable(),
  band: z.string().nullable(),
  flags: z.array(z.object({ flag: z.string(), reason: z.string() })),
});

/** valuation null with a refusal (units_required) when neither the query nor a listing gives a unit count. */
export const PropertyOutputSchema = z.looseObject({ property: Json, investor: z.looseObject({ valuation: ValuationSchema.nullable() }), refusal: RefusalSchema.nullable(), disclosure: DisclosureSchema });

/** The listing record fields the spec names; the listings domain adds valuation, target and motivation fields. */
export const ListingPublicSchema = z.looseObject({
  listing_id: z.string(),
  address: z.string(),
  zip: z.string(),
  price: z.number(),
  url: z.string(),
  deal_score: z.number().nullable().describe('null means unscored, never a fake 0'),
  model_version: z.string().nullable(),
});
export const ListingsOutputSchema = z.object({ as_of: z.string().nullable().describe('when the listings run that wrote these rows finished'), count: z.number().int().nonnegative(), listings: z.array(ListingPublicSchema) });
export type ListingsOutput = z.infer<typeof ListingsOutputSchema>;

export const ProfileCreatedSchema = z.object({ ok: z.literal(true), event_id: z.number().int().positive(), profile: Json });

export const AnalyticsOutputSchema = z.object({
  days: z.number().int(),
  from: z.string(),
  to: z.string(),
  total_calls: z.number().int(),
  anonymous_calls: z.number().int(),
  keyed_calls: z.number().int(),
  rejected_calls: z.number().int(),
  active_keys: z.number().int(),
  by_day: z.array(z.object({ date: z.string(), anonymous: z.number().int(), keyed: z.number().int(), rejected: z.number().int() })),
  by_operation: z.array(z.object({ op: z.string(), calls: z.number().int() })),
});

export const ToolEntrySchema = z.object({
  name: z.string(),
  description: z.string(),
  scope: z.string(),
  deprecated: z.boolean(),
  replacement: z.string().optional(),
  inputSchema: Json,
  outputSchema: Json,
});
export const ManifestSchema = z.object({ version: z.literal('v2'), tools: z.array(ToolEntrySchema) });
export type Manifest = z.infer<typeof ManifestSchema>;

/** Generated JSON documents (OpenAPI, /api/spec/*.json) and engine documents whose fields other modules own. */
export const JsonDocumentSchema = z.looseObject({});
