// Output schemas of the operations (REST bodies and MCP structuredContent). Every numeric answer extends
// AnswerMetaSchema; every valuation payload carries `disclosure`. Refusals and unscored rows are values here.
import { z } from 'zod';
import { PriorSaleSchema } from './arv.js';
import { CompRejectionSchema, CompSchema } from './comp.js';
import { RiskFlagSchema, RiskReportSchema } from './risk.js';
import { SubjectSchema } from './subject.js';
import { TractRecordSchema } from './tracts.js';
import { CashflowYearSchema, OffersSchema, ReturnsSchema, ScoringDetailSchema, StrategyScoresSchema, TractSummarySchema, UnderwriteBlockSchema } from './underwrite.js';
import { DISCLOSURE, UnscoredReasonSchema, ValuationSchema } from './valuation.js';
import { AnswerMetaSchema, RefusalSchema, StrategySchema } from './common.js';
import { AppFunnelSchema } from './analytics.js';

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
  missing_inputs: z.array(z.string()).describe('inputs that would unlock the unscored figures (e.g. rehab or sqft)'),
  offers: OffersSchema.nullable(),
  dscr: z.number().nullable(),
  returns: ReturnsSchema.nullable(),
  strategy_scores: StrategyScoresSchema.nullable(),
  scoring: ScoringDetailSchema.nullable(),
  cashflow_projection: z.array(CashflowYearSchema).nullable().describe('yearly: rent +2%/yr, opex +2.5%/yr'),
  assumptions: Json.describe('every accepted assumption echoed, caller-supplied or default'),
});
export type UnderwriteAnswer = z.infer<typeof UnderwriteAnswerSchema>;

// Spec (legacy summary fields): base, conservative, aggressive plus the comps used; absent when the gates refuse.
export const CompArvSchema = z.object({ base: z.number().nullable(), conservative: z.number().nullable(), aggressive: z.number().nullable(), comps: z.array(CompSchema) });

/** GET /api/underwrite: one valuation object with tract, arv_source, comp_arv (only when allowed), risk, underwrite and read. */
export const UnderwriteRestBodySchema = ValuationSchema.extend({
  tract: TractSummarySchema.nullable(),
  arv_source: z.string(),
  comp_arv: CompArvSchema.optional(),
  risk: RiskReportSchema.nullable(),
  underwrite: UnderwriteBlockSchema,
  read: z.string().describe('one-sentence verdict; never states a number the valuation does not allow'),
});
export type UnderwriteRestBody = z.infer<typeof UnderwriteRestBodySchema>;

/** GET /api/underwrite: the body above, or a refusal answer. */
export const UnderwriteRestOutputSchema = z.union([UnderwriteRestBodySchema, AnswerMetaSchema.extend({ disclosure: DisclosureSchema, refusal: RefusalSchema })]);

/** get_comps: the served valuation's comp evidence. Accepted and rejected candidates are listed even when the ladder served no Tier-1 value. */
export const CompsOutputSchema = AnswerMetaSchema.extend({
  disclosure: DisclosureSchema,
  refusal: RefusalSchema.nullable(),
  subject: SubjectSchema.nullable(),
  segment: z.string().nullable(),
  outcome: z.string().nullable(),
  method: z.string().nullable(),
  tier: z.number().int().nullable(),
  value: z.number().nullable().describe('the served point, null unless the valuation is a point'),
  interval: z.object({ low: z.number(), high: z.number() }).nullable().describe('the served low/high (the calibrated interval on Tier 1)'),
  calibrated_interval: ValuationSchema.shape.arv.shape.interval,
  suppression_reason: z.string().nullable(),
  range_reason: z.string().nullable(),
  ladder_step: z.number().int().nullable(),
  dispersion: z.number().nullable().describe('robust dispersion (fsd) of the accepted comps, percent'),
  dispersion_detail: z.object({ fsd_pct: z.number().nullable(), fsd_tier: z.string().nullable(), gate_pct: z.number() }),
  comps_used: z.array(CompSchema),
  comps_rejected: z.array(CompRejectionSchema),
  flip_pairs_summary: z.looseObject({}).nullable(),
  prior_sale: PriorSaleSchema.nullable().describe('the subject\'s own earlier sale and the factor it applied to the comps\' value (its values of the property only beside a point)'),
  time_index_note: z.string().nullable(),
  fallback_chain: z.array(Json),
  inputs_hash: z.string().nullable(),
});
export type CompsOutput = z.infer<typeof CompsOutputSchema>;

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
  risk_score: z.number().min(0).max(100),
  band: RiskReportSchema.shape.band,
  flags: z.array(RiskFlagSchema.extend({ flag: RiskFlagSchema.shape.code })),
  excluded_inputs: z.string(),
  disclosure: DisclosureSchema,
  subject: SubjectSchema,
  /** Set when the subject could not be valued (units unknown): the flags that need a valuation say there is no evidence. */
  valuation_refusal: RefusalSchema.nullable(),
});
export type RiskReportOutput = z.infer<typeof RiskReportOutputSchema>;

/** GET /api/property: the property record with the valuation (and its risk and tract context) under investor.*; a refusal (units_required) carries no valuation. */
export const PropertyOutputSchema = z.object({
  property: z.union([SubjectSchema, Json]),
  investor: z.object({ valuation: ValuationSchema.nullable(), risk: RiskReportSchema.nullable(), tract: TractSummarySchema.nullable() }),
  refusal: RefusalSchema.nullable(),
  disclosure: DisclosureSchema,
});
export type PropertyOutput = z.infer<typeof PropertyOutputSchema>;

/** The listing record fields the spec names; the listings domain adds valuation, target and motivation fields. */
export const ListingPublicSchema = z.looseObject({
  listing_id: z.string(),
  address: z.string(),
  zip: z.string(),
  price: z.number(),
  url: z.string(),
  deal_score: z.number().nullable().describe('null means unscored, never a fake 0'),
  model_version: z.string().nullable(),
  /** Every row carries valuation numbers: the disclosure travels with each, for consumers that show one row. */
  disclosure: DisclosureSchema,
});
export const ListingsOutputSchema = z.object({ as_of: z.string().nullable().describe('when the listings run that wrote these rows finished'), count: z.number().int().nonnegative(), listings: z.array(ListingPublicSchema), disclosure: DisclosureSchema });
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
  app: AppFunnelSchema,
});

export const ToolEntrySchema = z.object({
  name: z.string(),
  title: z.string(),
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
