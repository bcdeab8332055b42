// The alert payload (spec, Events: alert payload): the exact webhook POST body, its schema, and the builder from
// scored inventory rows. Receivers treat (listing_id, price) as idempotent.
import { z } from 'zod';
import type { Strategy } from '../contracts/common.js';

export const ModelVersionsSchema = z.strictObject({ model: z.string().min(1), underwrite: z.string().min(1), serving: z.string().min(1) });
export type ModelVersions = z.infer<typeof ModelVersionsSchema>;

// A strategy whose hard economic gate fails has no percentile: null (unscored), never a fake 0.
const strategyScore = z.number().min(0).max(100).nullable();

export const ScoreSnapshotSchema = z.strictObject({
  brrrr: strategyScore,
  flip: strategyScore,
  hold: strategyScore,
  /** Beyond the spec's three: a house_hack profile's alert carries the score that matched it. */
  house_hack: strategyScore,
  arv: z.number().positive(),
  arv_method: z.string().min(1),
  arv_confidence: z.number().min(0).max(100),
});

export const AlertMatchSchema = z.strictObject({
  listing_id: z.string().min(1),
  address: z.string(),
  zip: z.string(),
  price: z.number().positive(),
  url: z.string(),
  score_snapshot: ScoreSnapshotSchema,
});
export type AlertMatch = z.infer<typeof AlertMatchSchema>;

export const AlertPayloadSchema = z.strictObject({
  profile: z.strictObject({ id: z.string().min(1), name: z.string() }),
  strategy: z.enum(['flip', 'brrrr', 'hold', 'house_hack']),
  as_of: z.iso.datetime(),
  model_versions: ModelVersionsSchema,
  matches: z.array(AlertMatchSchema).min(1),
});
export type AlertPayload = z.infer<typeof AlertPayloadSchema>;

/** One scored inventory row as the listings run hands it to the matcher. Percentiles are 0-100 or null (unscored). */
export type ScoredRow = {
  listing_id: string;
  address: string;
  zip: string;
  price: number;
  url: string;
  lat: number;
  lon: number;
  /** True only when the valuation ladder gave a point (Tier 1, >= 5 comps, calibration display `point`). */
  point_actionable: boolean;
  percentiles: Record<Strategy, number | null>;
  /** ARV confidence, 0-100. */
  confidence: number;
  arv: number;
  arv_method: string;
  model_versions: ModelVersions;
};

export function matchFromRow(row: ScoredRow): AlertMatch {
  return {
    listing_id: row.listing_id,
    address: row.address,
    zip: row.zip,
    price: row.price,
    url: row.url,
    score_snapshot: {
      brrrr: row.percentiles.brrrr,
      flip: row.percentiles.flip,
      hold: row.percentiles.hold,
      house_hack: row.percentiles.house_hack,
      arv: row.arv,
      arv_method: row.arv_method,
      arv_confidence: row.confidence,
    },
  };
}

/** Builds and validates the payload; a schema failure here is a bug in the caller, so it throws. */
export function buildAlertPayload(args: {
  profile: { id: string; name: string };
  strategy: Strategy;
  asOf: Date;
  modelVersions: ModelVersions;
  matches: AlertMatch[];
}): AlertPayload {
  return AlertPayloadSchema.parse({
    profile: { id: args.profile.id, name: args.profile.name },
    strategy: args.strategy,
    as_of: args.asOf.toISOString(),
    model_versions: args.modelVersions,
    matches: args.matches,
  });
}
