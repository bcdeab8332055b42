// Inputs and outputs of the private endpoints (spec, Authentication 6): the caller's own state, the caller's saved
// deals with their current valuation and score, and a listings run on demand. Each needs a credential (401 without).
import { z } from 'zod';
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import { DOORS } from '../registry/groups/doors.js';
import { LastRunSchema } from './health.js';
import { StrategyScoresSchema } from './underwrite.js';
import { DISCLOSURE } from './valuation.js';
import { AnswerMetaSchema, RefusalSchema, StrategySchema } from './common.js';

const L = AUTH_LIMITS.v;
const Json = z.record(z.string(), z.unknown());

/** The kinds of user state an owner holds (DESIGN, One owner); API keys are listed by the key CLI, not here. */
export const STATE_KINDS = ['favorite', 'note', 'preset', 'profile'] as const;
export const StateKindSchema = z.enum(STATE_KINDS);
export type StateKind = z.infer<typeof StateKindSchema>;

const CursorSchema = z.string().min(1).max(DOORS.v.cursor_max_chars).describe('opaque next_cursor of a previous page');

export const StateQuerySchema = z.strictObject({
  kind: StateKindSchema.optional().describe('only this kind of record; every kind when omitted'),
  limit: z.number().int().min(1).max(L.state_page_max).describe(`records per page, 1-${L.state_page_max}`).default(L.state_page_default),
  cursor: CursorSchema.optional(),
});
export type StateQuery = z.output<typeof StateQuerySchema>;

export const StateItemSchema = z.object({
  kind: StateKindSchema,
  id: z.string().describe('the record id, unique among the owner\'s records of this kind'),
  seq: z.number().int().positive().describe('position in the owner\'s write order; a rewrite moves a record to the front'),
  record: Json.describe('the stored record (a profile\'s webhook secret is never shown)'),
});
export const StateOutputSchema = z.object({
  owner: z.string().describe('the owner every record here belongs to: the key\'s own, kept across rotations'),
  items: z.array(StateItemSchema).describe('newest write first'),
  next_cursor: z.string().nullable().describe('pass as `cursor` for the next page; null on the last page'),
});
export type StateOutput = z.infer<typeof StateOutputSchema>;

export const DealsQuerySchema = z.strictObject({
  limit: z.number().int().min(1).max(L.deals_page_max).describe(`deals per page, 1-${L.deals_page_max}`).default(L.deals_page_default),
  cursor: CursorSchema.optional(),
});
export type DealsQuery = z.output<typeof DealsQuerySchema>;

const money = z.number().nullable();
/** The valuation figures of a deal, from the scored listing row or from the engine's answer. */
export const DealValuationSchema = z.looseObject({
  outcome: z.string().nullable().describe('point, range or suppress (display ladder)'),
  point_actionable: z.boolean(),
  arv_value: money.describe('null unless the valuation is a point'),
  arv_low: money,
  arv_high: money,
  arv_method: z.string().nullable(),
  method_tier: z.number().int().nullable(),
  confidence: z.number().nullable(),
  value_as_is: money,
  inputs_hash: z.string().nullable(),
});
export type DealValuation = z.infer<typeof DealValuationSchema>;

export const DealItemSchema = z.object({
  favorite: Json,
  source: z.enum(['listing_row', 'engine', 'error']).describe('listing_row: the daily run\'s current-model row of this listing id; engine: valued now; error: could not be valued'),
  listing_id: z.string().nullable(),
  as_of: z.string().nullable(),
  model_version: z.string().nullable(),
  valuation: DealValuationSchema.nullable(),
  strategy_scores: StrategyScoresSchema.nullable(),
  deal_score: z.number().min(0).max(100).nullable().describe('null means unscored, never a fake 0'),
  best_strategy: StrategySchema.nullable(),
  unscored_reason: z.string().nullable(),
  refusal: RefusalSchema.nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type DealItem = z.infer<typeof DealItemSchema>;

export const DealsOutputSchema = AnswerMetaSchema.extend({
  items: z.array(DealItemSchema).describe('the caller\'s favorites, newest saved first, each with its current valuation and score'),
  next_cursor: z.string().nullable(),
  disclosure: z.literal(DISCLOSURE),
});

export const RunListingsOutputSchema = z.object({
  run_id: z.string(),
  last_run: LastRunSchema,
  feed_rows: z.number().int().nonnegative(),
  duplicates: z.number().int().nonnegative(),
  overflow: z.number().int().nonnegative(),
  active: z.number().int().nonnegative(),
  scored: z.number().int().nonnegative(),
  unscored: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  wall_ms: z.number().nonnegative(),
  alerts: z.object({ queued: z.number().int().nonnegative(), delivered: z.number().int().nonnegative(), dead_lettered: z.number().int().nonnegative() }).nullable(),
  joined: z.boolean().describe('true when this request joined a run already in progress instead of starting one'),
});
export type RunListingsOutput = z.infer<typeof RunListingsOutputSchema>;
