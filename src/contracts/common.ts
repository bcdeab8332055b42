// Schemas shared by the operation inputs and outputs: strategy, metro, coordinates, the numeric-answer envelope
// (as_of, model_versions, confidence) and refusals, which are answers rather than errors (spec, Errors).
import { z } from 'zod';

export const STRATEGIES = ['flip', 'brrrr', 'hold', 'house_hack'] as const;
export type Strategy = (typeof STRATEGIES)[number];

export const FINANCING_TYPES = ['conventional_investor', 'dscr_loan', 'hard_money', 'fha_oo', 'conventional_oo'] as const;
export type FinancingType = (typeof FINANCING_TYPES)[number];

export const StrategySchema = z.enum(STRATEGIES);
export const FinancingTypeSchema = z.enum(FINANCING_TYPES);
/** The only metro the service covers (spec: "the only metro value is chicago"). */
export const MetroSchema = z.enum(['chicago']);
export const LatSchema = z.number().min(-90).max(90);
export const LonSchema = z.number().min(-180).max(180);
export const NonEmptySchema = z.string().min(1);
/** An 11-digit census tract GEOID as the tool accepts it; whether it is mapped is a lookup (tract_not_found). */
export const GeoidInputSchema = z.string().regex(/^\d{11}$/, 'an 11-digit census tract GEOID');

export const ModelVersionsSchema = z.object({ model: z.string(), underwrite: z.string(), serving: z.string() });
export type ModelVersions = z.infer<typeof ModelVersionsSchema>;

/** 0-100, or null when the answer carries no estimate of its own (e.g. a tract record whose signals are not computed). */
export const ConfidenceSchema = z.number().min(0).max(100).nullable();

/** Carried by every numeric answer (spec, Tool server). */
export const AnswerMetaSchema = z.object({
  as_of: z.string().describe('ISO timestamp the answer was computed'),
  model_versions: ModelVersionsSchema,
  confidence: ConfidenceSchema,
});
export type AnswerMeta = z.infer<typeof AnswerMetaSchema>;

export const REFUSAL_CODES = ['no_confident_comps', 'units_required', 'price_required'] as const;
/** The spec's standing rule on refusals, in the words a tool description and the MCP server instructions carry. */
export const REFUSAL_RULE =
  'A refusal (no confident comps, unit count or price unknown, an unscored row) is a valid answer, not an error: do not retry it, ' +
  'and never replace it with a number of your own.';
/** The spec's standing rule on what the numbers are for (they carry the disclosure's ±20%). */
export const SCREENING_RULE = 'Outputs are screening numbers: no autonomous offers, signing or money movement on them.';

/** A refusal is a valid answer: not retried, never replaced by a substitute number. */
export const RefusalSchema = z.object({ code: z.enum(REFUSAL_CODES), message: z.string() }).describe(REFUSAL_RULE);
export type Refusal = z.infer<typeof RefusalSchema>;

export const NO_CONFIDENT_COMPS_TEXT = 'Cannot value — no confident comps';

/** What write tools return once the record is durable and its sync-stream record appended. */
export const WriteAckSchema = z.object({ ok: z.literal(true), record: z.record(z.string(), z.unknown()) });
export type WriteAck = z.infer<typeof WriteAckSchema>;

/** What UI-controller tools return: the appended stream record id. */
export const UiAckSchema = z.object({ ok: z.literal(true), event_id: z.number().int().positive(), kind: z.string() });
export type UiAck = z.infer<typeof UiAckSchema>;
