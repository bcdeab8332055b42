// Economics answers around a valuation: the tract summary, offers, returns, per-strategy scores and the underwrite
// block of GET /api/underwrite. Point-derived numbers are null unless the valuation is a point (ladder.ts); a figure
// that needs an input the caller did not give is null, and `missing_inputs` names what to pass.
import { z } from 'zod';
import { StrategySchema } from './common.js';

const money = z.number().nullable();

/** Tract context of an answer (location screen only, never the property score). */
export const TractSummarySchema = z.object({
  geoid: z.string(),
  muni: z.string().nullable(),
  flip_score: z.number().nullable(),
  brrrr_score: z.number().nullable(),
  effective_tax_rate: z.number().nullable(),
  safmr_2br: z.number().nullable(),
  reassessment_status: z.string().nullable(),
});
export type TractSummary = z.infer<typeof TractSummarySchema>;

export const OffersSchema = z.object({
  max_offer: money.describe('full-cost flip offer (purchase and sale closing, holding, financing, target profit)'),
  max_offer_70_rule: money.describe('the 70% rule of thumb beside it: 0.70 × ARV − rehab'),
  brrrr_offer: money,
  max_offer_basis: z.enum(['full_cost']).nullable(),
});
export type Offers = z.infer<typeof OffersSchema>;

export const RehabBasisSchema = z.enum(['included', 'excluded_unknown']).nullable().describe('excluded_unknown: the rehab is unknown, figures are at the purchase price alone and never scored');

export const ReturnsSchema = z.object({
  noi: money,
  dscr: money,
  cash_on_cash: money,
  profit: money,
  profit_margin: money,
  cash_invested: money,
  cash_left_in: money,
  economics_factor: z.number().min(0).max(1).nullable(),
  loan_limit: money,
  rehab_basis: RehabBasisSchema,
});
export type Returns = z.infer<typeof ReturnsSchema>;

/** Per strategy; every strategy key present. */
const perStrategy = <T extends z.ZodType>(v: T) => z.object({ flip: v, brrrr: v, hold: v, house_hack: v });

export const StrategyScoresSchema = perStrategy(z.number().min(0).max(100).nullable()).describe('per-strategy inventory percentile (0-100) of this subject among the current scored inventory; null = unscored');
export type StrategyScores = z.infer<typeof StrategyScoresSchema>;

export const ScoringDetailSchema = z.object({
  raw: perStrategy(z.number().nullable()).describe('gated, weighted raw score the percentile ranks'),
  null_reasons: perStrategy(z.string().nullable()),
  population: perStrategy(z.number().int().nonnegative()).describe('scored current-model listings the percentile is taken among'),
  listings_run: z.string().nullable().describe('when the listings run that scored that inventory finished'),
});

/** Hold at the purchase price: what is known without a rehab figure (NOI, DSCR, cash-on-cash). */
export const HoldFiguresSchema = z.object({ noi: money, dscr: money, cash_on_cash: money, rehab_basis: RehabBasisSchema });

export const CashflowYearSchema = z.object({
  year: z.number().int(), gross_rent: z.number(), effective_gross_income: z.number(), opex: z.number(), noi: z.number(), debt_service: z.number(), cashflow: z.number(),
});

/** GET /api/underwrite `underwrite`: ARV, both offers, DSCR, economics_factor and the full assumptions block. */
export const UnderwriteBlockSchema = z.object({
  strategy: StrategySchema.nullable(),
  arv: money,
  max_offer: money,
  brrrr_offer: money,
  dscr: money,
  economics_factor: z.number().min(0).max(1).nullable(),
  unscored_reason: z.string().nullable(),
  missing_inputs: z.array(z.string()).describe('inputs that would unlock the unscored figures (e.g. rehab or sqft)'),
  hold: HoldFiguresSchema.nullable(),
  strategy_scores: StrategyScoresSchema.nullable(),
  assumptions: z.record(z.string(), z.unknown()).nullable(),
});
export type UnderwriteBlock = z.infer<typeof UnderwriteBlockSchema>;
