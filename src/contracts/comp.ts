// Comp (item of arv.comps and artifact.comps_used) and the reason-tagged rejection (artifact.comps_rejected).
// Caps (index factor clamp, ±15% GLA adjustment) are checked here or in valuation-invariants.ts.
import { z } from 'zod';
import { COMP_POLICY } from '../registry/groups/comp-policy.js';
import { DOORS } from '../registry/groups/doors.js';
import { LatSchema, LonSchema } from './common.js';
import { IsoDateSchema } from './subject.js';

/** Rejection reasons the kernel emits, by code (index). Order is part of the ABI. */
export const REJECTION_REASONS = [
  'gla_band',
  'beds_band',
  'ppsf_outlier_mad',
  'rapid_resale_within_90d',
  'price_under_10k',
  'multi_parcel_sale',
  'non_arms_deed_type',
  'quitclaim_deed',
  'duplicate_sale_within_365d',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export const COMP_CONDITIONS = ['distressed', 'dated', 'renovated', 'new'] as const;
export const CompConditionSchema = z.enum(COMP_CONDITIONS);

/**
 * Where a comp's condition came from (the ingest's inference, src/ingest/condition/): the feed's own column, a same-PIN
 * resale leg, the sale's position against the hedonic expectation for its facts and location, the year built (new),
 * the CCAO renovation / repair flags, or nothing recorded. Same names, same order as CONDITION_SOURCE_CODE.
 */
export const CONDITION_SOURCES = ['feed', 'resale_leg', 'hedonic', 'year_built', 'flags', 'unknown'] as const;
export const ConditionSourceSchema = z.enum(CONDITION_SOURCES);

const COMP_LAT_TEXT = `latitude of the sale's parcel, WGS84 degrees rounded to ${DOORS.v.comp_coord_decimals} places (about 1 m)`;
const COMP_LON_TEXT = `longitude of the sale's parcel, WGS84 degrees rounded to ${DOORS.v.comp_coord_decimals} places (about 1 m)`;

const [INDEX_MIN, INDEX_MAX] = COMP_POLICY.v.time_index_clamp;

export const CompSchema = z.object({
  pin: z.string().min(1),
  price: z.number().positive(),
  indexed_price: z.number().positive(),
  /** Time index applied; capped at 8%/yr compounded and hard-clamped to [0.75, 1.30]. */
  index_factor: z.number().min(INDEX_MIN).max(INDEX_MAX),
  /** Living-area dollar adjustment on the indexed price, |gla_adj| ≤ 15% of indexed_price (invariant check). */
  gla_adj: z.number().nullable(),
  sale_year: z.number().int().nullable(),
  sale_date: IsoDateSchema.nullable(),
  dist_mi: z.number().nonnegative(),
  /** Where the sale's parcel is (WGS84 degrees, doors.comp_coord_decimals places), so a client can draw the comp. */
  lat: LatSchema.describe(COMP_LAT_TEXT),
  lon: LonSchema.describe(COMP_LON_TEXT),
  sqft: z.number().positive().nullable(),
  beds: z.number().int().nonnegative().nullable(),
  condition: CompConditionSchema,
  condition_source: ConditionSourceSchema,
  /** Probability of that condition given the evidence of its source (1 for feed and year built); null when not recorded. */
  condition_prob: z.number().min(0).max(1).nullable(),
  similarity: z.number().min(0).max(1),
});
export type Comp = z.infer<typeof CompSchema>;

/**
 * The spec's rejection list is open-ended, so `reason` is any snake_case code; the kernel's known codes are
 * REJECTION_REASONS (src/store/columns.ts) and `isKnownRejectionReason` tells them apart.
 */
export const RejectionReasonSchema = z.string().regex(/^[a-z][a-z0-9_]*$/, 'a snake_case rejection reason');
export const KNOWN_REJECTION_REASONS: readonly string[] = REJECTION_REASONS;
export function isKnownRejectionReason(reason: string): boolean {
  return KNOWN_REJECTION_REASONS.includes(reason);
}

export const CompRejectionSchema = z.object({
  pin: z.string().min(1),
  reason: RejectionReasonSchema,
  sale_date: IsoDateSchema.nullable(),
  price: z.number().nonnegative(),
  dist_mi: z.number().nonnegative(),
  /** Where the rejected sale's parcel is (as on CompSchema). */
  lat: LatSchema.describe(COMP_LAT_TEXT),
  lon: LonSchema.describe(COMP_LON_TEXT),
});
export type CompRejection = z.infer<typeof CompRejectionSchema>;
