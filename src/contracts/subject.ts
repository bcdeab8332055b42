// Subject: the canonical identity of the property valued (spec "Subject"). Unknown fields stay null and are
// never borrowed from a comp; the same object is carried as artifact.subject (parity checked by the invariants).
import { z } from 'zod';

export const COUNTIES = ['cook', 'lake', 'unknown'] as const;
export const CountySchema = z.enum(COUNTIES);
export type County = z.infer<typeof CountySchema>;

/** An 11-digit census tract GEOID (any state; the tract list narrows it to Cook 17031 / Lake 17097). */
export const TractGeoidSchema = z.string().regex(/^\d{11}$/, 'an 11-digit census tract GEOID');

/** ISO date `YYYY-MM-DD` or a full ISO timestamp with offset (as_of values, sale dates). */
export const IsoDateSchema = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

export const SubjectSchema = z.object({
  key: z.string().min(1),
  listing_id: z.string().nullable().optional(),
  address: z.string().nullable().optional(),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  tract_geoid: TractGeoidSchema.nullable(),
  county: CountySchema,
  price: z.number().nonnegative().nullable(),
  price_source: z.string().nullable(),
  units: z.number().int().min(1).max(4).nullable(),
  units_source: z.string().nullable(),
  beds: z.number().nonnegative().nullable().optional(),
  sqft: z.number().positive().nullable().optional(),
  year_built: z.number().int().nullable().optional(),
  property_type: z.string().nullable(),
  condition: z.string().nullable(),
  condition_source: z.string(),
});
export type Subject = z.infer<typeof SubjectSchema>;
