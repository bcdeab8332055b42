// The map's geometry layers as GeoJSON (RFC 7946) FeatureCollections: the mapped tracts with their location signals
// (GET /api/geo/tracts) and the CCAO neighborhood and township outlines (GET /api/geo/neighborhoods, /townships).
// A signal the data could not support is null ("no data" on the map), never 0.
import { z } from 'zod';
import { GeoidSchema } from './tracts.js';

const PositionSchema = z.array(z.number()).min(2).max(3).describe('[longitude, latitude] in WGS 84 degrees');
/** RFC 7946 3.1.6: a linear ring has at least four positions, its last equal to its first. */
export const RING_MIN_POSITIONS = 4;
const RingSchema = z.array(PositionSchema).min(RING_MIN_POSITIONS).describe('a closed linear ring');
export const AreaGeometrySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('Polygon'), coordinates: z.array(RingSchema) }),
  z.object({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(RingSchema)) }),
]);

const percentile = z.number().min(0).max(100).nullable();

/** The tract signals the map can shade by; the names are the GeoJSON property names. */
export const TRACT_MAP_SIGNALS = ['flip_score', 'brrrr_score', 'hold_score', 'house_hack_score', 'effective_tax_rate', 'section8_gap'] as const;
export type TractMapSignal = (typeof TRACT_MAP_SIGNALS)[number];

export const TractShapePropsSchema = z.object({
  geoid: GeoidSchema,
  county: z.enum(['cook', 'lake']),
  muni: z.string().nullable(),
  flip_score: percentile.describe('flip location score, county percentile 0-100; null = no data'),
  brrrr_score: percentile.describe('BRRRR location score, county percentile 0-100; null = no data'),
  hold_score: percentile.describe('hold location score, county percentile 0-100; null = no data'),
  house_hack_score: percentile.describe('house-hack location score, county percentile 0-100; null = no data'),
  effective_tax_rate: z.number().nonnegative().nullable().describe('effective property tax rate at the median price, fraction of value per year; null = no data'),
  section8_gap: z.number().nullable().describe('HUD SAFMR 2BR minus estimated contract rent, USD per month; null = no data'),
});
export type TractShapeProps = z.infer<typeof TractShapePropsSchema>;

export const TractShapesSchema = z.object({
  type: z.literal('FeatureCollection'),
  vintage: z.string().describe('tract vintage of the stored corpus'),
  signals_as_of: z.string().describe('the day after the last stored sale: signals are dated by the data'),
  features: z.array(z.object({ type: z.literal('Feature'), properties: TractShapePropsSchema, geometry: AreaGeometrySchema })),
});
export type TractShapes = z.infer<typeof TractShapesSchema>;

export const NeighborhoodShapesSchema = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(z.object({
    type: z.literal('Feature'),
    properties: z.object({ town_nbhd: z.string(), township_code: z.string(), township_name: z.string(), triad_code: z.string(), triad_name: z.string() }),
    geometry: AreaGeometrySchema,
  })),
});

export const TownshipShapesSchema = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(z.object({
    type: z.literal('Feature'),
    properties: z.object({ township_code: z.string(), township_name: z.string(), triad_code: z.string() }),
    geometry: AreaGeometrySchema,
  })),
});
