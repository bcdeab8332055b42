// Input schemas of every operation, with the spec's defaults and bounds (Endpoints, Limits). Strict (extra keys
// rejected) where the spec says so (deep_underwrite_asset, underwrite) and on every REST query; write inputs reuse
// the schemas of the modules that store them (events/user-state, alerts/profile), so there is one definition each.
import { z } from 'zod';
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import { DOORS } from '../registry/groups/doors.js';
import { LISTINGS_RUN } from '../registry/groups/listings.js';
import { CustomAssumptionsSchema } from './assumptions.js';
import { INVENTORY_FIELDS } from './inventory.js';
import { ProfileInputSchema } from './profile.js';
import { FavoriteInputSchema, NoteInputSchema, PresetInputSchema } from './user-state.js';
import { WeightsSchema } from './weights.js';
import { FinancingTypeSchema, GeoidInputSchema, LatSchema, LonSchema, MetroSchema, NonEmptySchema, StrategySchema } from './common.js';

const D = DOORS.v;

export { FavoriteInputSchema, NoteInputSchema, PresetInputSchema, ProfileInputSchema };

export const EmptyInputSchema = z.strictObject({});

/** Fields a caller may select with `fields` on inventory search: the listings domain's allowlist. */
export { INVENTORY_FIELDS };
const L = LISTINGS_RUN.v;

const BBOX_RE = /^-?\d+(\.\d+)?,-?\d+(\.\d+)?,-?\d+(\.\d+)?,-?\d+(\.\d+)?$/;
/** `west,south,east,north` in degrees, west < east and south < north. */
export const BboxTextSchema = z
  .string()
  .regex(BBOX_RE, 'bbox is "west,south,east,north"')
  .refine((s) => {
    const [w, so, e, n] = s.split(',').map(Number);
    return w >= -180 && e <= 180 && so >= -90 && n <= 90 && w < e && so < n;
  }, 'bbox must have west < east, south < north, within ±180/±90');

export const FieldsTextSchema = z
  .string()
  .refine((s) => s.split(',').every((f) => (INVENTORY_FIELDS as readonly string[]).includes(f.trim())), `fields: comma-separated subset of ${INVENTORY_FIELDS.join(',')}`);

export const InventorySearchInputSchema = z.object({
  metro: MetroSchema.default('chicago'),
  strategy: StrategySchema.default('brrrr'),
  bbox: BboxTextSchema.optional(),
  geography: z.string().min(1).max(D.text_max_chars).optional().describe('ZIP code or neighborhood name'),
  min_percentile: z.number().min(0).max(100).optional(),
  max_price: z.number().min(0).optional(),
  min_confidence: z.number().min(0).max(100).optional(),
  fields: FieldsTextSchema.optional(),
  cursor: z.string().max(D.cursor_max_chars).optional().describe('opaque next_cursor of a previous page'),
  limit: z.number().int().min(1).max(L.inventory_page_max).default(L.inventory_page_default),
});
export type InventorySearchInput = z.output<typeof InventorySearchInputSchema>;

export const SearchDealsInputSchema = z.object({
  metro: MetroSchema.default('chicago'),
  strategy: StrategySchema.default('brrrr'),
  min_score: z.number().min(0).max(100).optional().describe('omitted means the live top-quartile cutoff'),
  max_price: z.number().min(0).optional(),
  limit: z.number().int().min(1).max(L.inventory_page_max).default(L.search_deals_limit_default),
  since_hours: z.number().positive().optional(),
});
export type SearchDealsInput = z.output<typeof SearchDealsInputSchema>;

/** Identity of the property: a property id, an address, or a lat/lon pair (at least one). */
function hasSubject(v: { property_id?: string; address?: string; lat?: number; lon?: number }): boolean {
  return v.property_id !== undefined || v.address !== undefined || (v.lat !== undefined && v.lon !== undefined);
}
const SUBJECT_MSG = { message: 'give property_id, address, or both lat and lon' };

export const DeepUnderwriteInputSchema = z
  .strictObject({
    property_id: NonEmptySchema.optional(),
    address: NonEmptySchema.optional(),
    lat: LatSchema.optional(),
    lon: LonSchema.optional(),
    units: z.number().int().min(1).max(4).optional(),
    strategy: StrategySchema.default('brrrr'),
    metro: MetroSchema.default('chicago'),
    horizon_years: z.number().int().min(1).max(30).default(5),
    custom_assumptions: CustomAssumptionsSchema.optional(),
  })
  .refine(hasSubject, SUBJECT_MSG);
export type DeepUnderwriteInput = z.output<typeof DeepUnderwriteInputSchema>;

export const PropTypeSchema = z.enum(['mf2_4', 'sfh']);
/**
 * get_comps: prop_type defaults to mf2_4 only where neither the caller, the parcel or listing record, nor a unit count
 * says what the building is; `units` and `property_id` name the subject as the other doors do (same valuation).
 */
export const CompsInputSchema = z
  .object({
    property_id: NonEmptySchema.optional(),
    address: NonEmptySchema.optional(),
    lat: LatSchema.optional(),
    lon: LonSchema.optional(),
    units: z.number().int().min(1).max(4).optional(),
    prop_type: PropTypeSchema.optional().describe('mf2_4 or sfh; default mf2_4 when nothing else says'),
  })
  .refine(hasSubject, SUBJECT_MSG);
export type CompsInput = z.output<typeof CompsInputSchema>;

/** The v1 `underwrite` tool: every key of the spec's table and no other. */
export const UnderwriteAliasInputSchema = z
  .strictObject({
    address: NonEmptySchema.optional(),
    lat: LatSchema.optional(),
    lon: LonSchema.optional(),
    price: z.number().positive().optional(),
    rehab: z.number().min(0).optional(),
    rent: z.number().min(0).optional(),
    units: z.number().int().min(1).max(4).optional(),
    prop_type: z.enum(['sfh', 'mf2_4', 'condo']).optional(),
    beds: z.number().int().min(0).optional(),
    sqft: z.number().int().min(1).optional(),
    year_built: z.number().int().min(1800).max(2027).optional(),
    rate: z.number().gt(0).lte(100).optional(),
    down_pct: z.number().min(0).max(1).optional(),
    hold_months: z.number().int().min(0).optional(),
    rent_override: z.number().min(0).optional(),
    financing_type: FinancingTypeSchema.optional(),
    mgmt_self: z.boolean().optional(),
    hoa: z.number().min(0).optional(),
    owner_occupied: z.boolean().optional(),
    scope: z.enum(['cosmetic', 'moderate', 'gut', 'structural']).optional(),
    strategy: StrategySchema.default('brrrr'),
    metro: MetroSchema.default('chicago'),
    weights: WeightsSchema.optional(),
  })
  .refine(hasSubject, SUBJECT_MSG);
export type UnderwriteAliasInput = z.output<typeof UnderwriteAliasInputSchema>;

/** Query numbers: the REST door turns decimal query text into numbers per this schema (http/query.ts), then bounds apply. */
const qNum = () => z.number();
/**
 * The spec's REST table names lat, lon, price and units (required); the optional inputs of the `underwrite` tool are
 * accepted too, so a point answer can carry every figure its inputs allow (rehab or sqft unlock offers and returns).
 */
export const UnderwriteQuerySchema = z.strictObject({
  lat: qNum().min(-90).max(90),
  lon: qNum().min(-180).max(180),
  price: qNum().positive(),
  units: qNum().int().min(1).max(4),
  rehab: qNum().min(0).optional().describe('rehab budget, USD'),
  rent: qNum().min(0).optional().describe('monthly rent of the whole building, USD (same as rent_override)'),
  rent_override: qNum().min(0).optional(),
  prop_type: z.enum(['sfh', 'mf2_4', 'condo']).optional(),
  beds: qNum().int().min(0).max(40).optional(),
  sqft: qNum().int().min(1).max(100_000).optional().describe('living area; lets the rehab be estimated'),
  year_built: qNum().int().min(1800).max(2027).optional(),
  scope: z.enum(['cosmetic', 'moderate', 'gut', 'structural']).optional(),
  rate: qNum().gt(0).lte(100).optional().describe('loan rate, percent per year'),
  down_pct: qNum().min(0).max(1).optional(),
  hold_months: qNum().int().min(0).max(600).optional(),
  financing_type: FinancingTypeSchema.optional(),
  hoa: qNum().min(0).optional().describe('monthly HOA dues, USD'),
  mgmt_self: z.boolean().optional(),
  owner_occupied: z.boolean().optional(),
  strategy: StrategySchema.default('brrrr'),
});
export type UnderwriteQuery = z.output<typeof UnderwriteQuerySchema>;

export const PropertyQuerySchema = z
  .strictObject({
    property_id: NonEmptySchema.max(D.text_max_chars).optional(),
    address: NonEmptySchema.max(D.text_max_chars).optional(),
    lat: qNum().min(-90).max(90).optional(),
    lon: qNum().min(-180).max(180).optional(),
    units: qNum().int().min(1).max(4).optional(),
    prop_type: z.enum(['sfh', 'mf2_4', 'condo']).optional(),
  })
  .refine(hasSubject, SUBJECT_MSG);
export type PropertyQuery = z.output<typeof PropertyQuerySchema>;

export const AnalyticsQuerySchema = z.strictObject({ days: qNum().int().min(1).max(AUTH_LIMITS.v.analytics_max_days) });
export const EventsQuerySchema = z.strictObject({ after: z.string().regex(/^\d{1,15}$/).optional() });

export const TractReportInputSchema = z.object({ geoid: GeoidInputSchema });
export const MarketPulseInputSchema = z.object({ metro: MetroSchema.default('chicago') });
/** Strict: an input the report does not read (a crime rate, a demographic field) is refused, never ignored. */
export const RiskReportInputSchema = z
  .strictObject({ address: NonEmptySchema.optional(), lat: LatSchema.optional(), lon: LonSchema.optional(), listing_units: z.number().int().min(1).max(4).optional(), year_built: z.number().int().min(1800).max(2027).optional() })
  .refine(hasSubject, SUBJECT_MSG);
export type RiskReportInput = z.output<typeof RiskReportInputSchema>;

export const MapFiltersInputSchema = z.object({
  strategy: StrategySchema.optional(),
  min_percentile: z.number().min(0).max(100).optional(),
  max_price: z.number().min(0).optional(),
  min_confidence: z.number().min(0).max(100).optional(),
  statuses: z.array(z.string().min(1).max(D.text_max_chars)).max(D.statuses_max).optional(),
});
export const FlyToInputSchema = z
  .object({ lat: LatSchema.optional(), lon: LonSchema.optional(), zoom: z.number().min(D.map_zoom_range[0]).max(D.map_zoom_range[1]).optional(), address: NonEmptySchema.max(D.text_max_chars).optional() })
  .refine((v) => v.address !== undefined || (v.lat !== undefined && v.lon !== undefined), { message: 'give lat and lon, or address' });
export const HighlightInputSchema = z.object({ ids: z.array(NonEmptySchema.max(D.text_max_chars)).min(1).max(D.highlight_max_ids) });
