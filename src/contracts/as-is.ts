// As-is value (valuation.value_as_is): median of the dated/distressed stratum, labeled, never blended into arv (INV-8).
import { z } from 'zod';
import { PriorSaleSchema } from './arv.js';

export const AS_IS_BASES = ['primary', 'relaxed', 'mixed_condition_haircut'] as const;

export const AsIsSchema = z.object({
  value: z.number().positive().nullable(),
  low: z.number().nonnegative().nullable(),
  high: z.number().nonnegative().nullable(),
  n_comps: z.number().int().nonnegative(),
  as_is_basis: z.enum(AS_IS_BASES).nullable().optional(),
  /**
   * Which sales the median is over: the subject's own condition (`distressed`, `dated`) when the caller or the listing
   * states it and it has enough comps; else the pooled dated/distressed stratum (`dated_distressed`, the spec's
   * primary/relaxed) or the mixed non-renovated one (`non_renovated`, with the haircut). A subject whose condition
   * nobody states is valued from every sale around it (`all_conditions`): sale conditions are estimated from prices
   * (issue 14), so a stratum picked by them would sell low by construction.
   */
  as_is_stratum: z.enum(['distressed', 'dated', 'dated_distressed', 'non_renovated', 'all_conditions']).nullable().optional(),
  /**
   * The subject's own earlier sale and the factor it applied to the stratum's median (value, low and high are the
   * median and quartiles × factor; weights fitted on the as-is backtest, the calibration table's priorSaleAsIs). Only
   * an `all_conditions` value moves (no stated condition: the weights were fitted on such values). The as-is value is
   * shown beside every outcome, so the carried price and the median are shown too.
   */
  prior_sale: PriorSaleSchema.nullable().optional(),
});
export type AsIs = z.infer<typeof AsIsSchema>;
