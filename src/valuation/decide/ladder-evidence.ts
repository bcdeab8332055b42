// The typed evidence the display ladder decides from (valuation/ladder.ts). Built by the valuation assembly from
// the kernel's comp statistics, the calibration table, the hedonic model and the area context; never from as-is.
import { z } from 'zod';
import { CountySchema } from '../../contracts/subject.js';
import { PRIOR_SALE_GROUPS, Tier1MethodSchema } from '../../contracts/arv.js';
import { COMP_POLICY } from '../../registry/groups/comp-policy.js';

export const DISPLAY_SETTINGS = ['point', 'range', 'suppress'] as const;
export const DisplaySettingSchema = z.enum(DISPLAY_SETTINGS);
export type DisplaySetting = z.infer<typeof DisplaySettingSchema>;

/** One calibration-table row: split-conformal ratio quantiles (price/estimate) and the segment's display gate. */
export const CalibrationSegmentSchema = z
  .object({
    segment: z.string().min(1),
    version: z.string().nullable(),
    q80Lo: z.number().positive(),
    q80Hi: z.number().positive(),
    confidenceP10: z.number().min(0).max(100).nullable(),
    display: DisplaySettingSchema,
    /** Set when the subject's segment has no row of its own and this is the declared fallback row serving it. */
    fallbackFor: z.string().min(1).nullable().optional(),
  })
  .refine((c) => c.q80Lo <= c.q80Hi, { message: 'q80Lo ≤ q80Hi' });
export type CalibrationSegment = z.infer<typeof CalibrationSegmentSchema>;

const UsdRangeSchema = z.object({ low: z.number().nonnegative(), high: z.number().nonnegative() }).refine((r) => r.low <= r.high, { message: 'low ≤ high' });

export const PriorSaleEvidenceSchema = z.object({
  row: z.number().int().nonnegative(),
  saleDay: z.number().int(),
  priceUsd: z.number().positive(),
  group: z.enum(PRIOR_SALE_GROUPS),
  indexFactor: z.number().positive(),
  carriedUsd: z.number().positive(),
  logGap: z.number(),
});

export const Tier1EvidenceSchema = z
  .object({
    method: Tier1MethodSchema,
    /** Qualifying comps after bands, screens and the MAD trim (the kernel caps at max_comps). */
    nComps: z.number().int().min(0).max(COMP_POLICY.v.max_comps),
    /** Comp estimate before rounding; null when fewer than min_comps_value comps qualified. */
    valueUsd: z.number().positive().nullable(),
    /** Robust dispersion proxy in percent (the 0.35 gate is compared as fsdPct / 100). */
    fsdPct: z.number().nonnegative().nullable(),
    ladderStep: z.union([z.literal(1), z.literal(2), z.literal(3)]).nullable(),
    /** Empirical comp interquartile range in USD; required whenever valueUsd is set. */
    compRangeUsd: UsdRangeSchema.nullable(),
    /** Set by the assembly when a luxury subject has too few comparable luxury sales. */
    luxuryThinComps: z.boolean(),
    calibration: CalibrationSegmentSchema.nullable(),
    /** Tier-2 model value for the approaches-disagree check; null/absent when no model ran. */
    modelValueUsd: z.number().positive().nullable().optional(),
    /**
     * The subject's own earlier sale against the comps value (comps/prior-sale.ts), before any weight; null/absent when
     * it has none. valueUsd already carries the champion's weight of it (value.ts decideFrom).
     */
    priorSale: PriorSaleEvidenceSchema.nullable().optional(),
    /** The comps value before the prior-sale factor (set with priorSale once a weight applied). */
    compsValueUsd: z.number().positive().nullable().optional(),
  })
  .refine((t) => t.valueUsd === null || (t.compRangeUsd !== null && t.fsdPct !== null), { message: 'compRangeUsd and fsdPct are required with valueUsd' });
export type Tier1Evidence = z.infer<typeof Tier1EvidenceSchema>;

export const HedonicEvidenceSchema = z
  .object({
    segment: z.string().min(1),
    version: z.string().nullable(),
    /** The hedonic segment's display setting allows a Tier-2 range. */
    displayEligible: z.boolean(),
    locationResolved: z.boolean(),
    valueUsd: z.number().positive(),
    /** sigma × conformal band from the hedonic module, USD. */
    lowUsd: z.number().nonnegative(),
    highUsd: z.number().nonnegative(),
    /** Residual sigma of the log model in percent, for the legacy confidence; null when unknown. */
    sigmaPct: z.number().nonnegative().nullable(),
    confidenceP10: z.number().min(0).max(100).nullable(),
    locationBasis: z.string().nullable(),
    quarterUsed: z.string().nullable(),
  })
  .refine((h) => h.lowUsd <= h.valueUsd && h.valueUsd <= h.highUsd, { message: 'lowUsd ≤ valueUsd ≤ highUsd' });
export type HedonicEvidence = z.infer<typeof HedonicEvidenceSchema>;

export const AreaContextEvidenceSchema = z.object({
  valueUsd: z.number().positive(),
  lowUsd: z.number().nonnegative().nullable(),
  highUsd: z.number().nonnegative().nullable(),
  /** Capped at area_context_confidence_max (55) by the ladder. */
  confidence: z.number().min(0).max(100).nullable(),
  premium: z.record(z.string(), z.unknown()).nullable(),
  basis: z.string().nullable(),
});
export type AreaContextEvidence = z.infer<typeof AreaContextEvidenceSchema>;

/** Subject-level gates: each one suppresses outright (no Tier 2, no area context). */
export const SubjectGatesSchema = z.object({
  county: CountySchema,
  outsideMappedTracts: z.boolean(),
  tractNotIngested: z.boolean(),
  condoModelUnavailable: z.boolean(),
});
export type SubjectGates = z.infer<typeof SubjectGatesSchema>;

export const LadderEvidenceSchema = z.object({
  subject: SubjectGatesSchema,
  tier1: Tier1EvidenceSchema.nullable(),
  tier2: HedonicEvidenceSchema.nullable(),
  areaContext: AreaContextEvidenceSchema.nullable(),
});
export type LadderEvidence = z.infer<typeof LadderEvidenceSchema>;
