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
import { FinancingTypeSchema, GeoidInputSchema, NonEmptySchema } from './common.js';
import { AddressParam, LatParam, LonParam, PropertyIdParam, withSubjectRule } from './subject-input.js';
import { MaxPrice, Metro, MinConfidence, MinPercentile, PROP_TYPE_TEXT, Strategy, PROFORMA_TEXT, Units } from './param-text.js';

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
  }, 'bbox must have west < east, south < north, within ±180/±90')
  .describe('bounding box "west,south,east,north" in decimal degrees (west < east, south < north), e.g. "-87.75,41.85,-87.6,41.95"');

export const FieldsTextSchema = z
  .string()
  .refine((s) => s.split(',').every((f) => (INVENTORY_FIELDS as readonly string[]).includes(f.trim())), `fields: comma-separated subset of ${INVENTORY_FIELDS.join(',')}`)
  .describe(`comma-separated fields to return per row, a subset of ${INVENTORY_FIELDS.join(',')}; every field when omitted`);

export const InventorySearchInputSchema = z.object({
  metro: Metro.default('chicago'),
  strategy: Strategy.default('brrrr'),
  bbox: BboxTextSchema.optional(),
  geography: z.string().min(1).max(D.text_max_chars).optional().describe('ZIP code or neighborhood name'),
  min_percentile: MinPercentile.optional(),
  max_price: MaxPrice.optional(),
  min_confidence: MinConfidence.optional(),
  fields: FieldsTextSchema.optional(),
  cursor: z.string().max(D.cursor_max_chars).optional().describe('opaque next_cursor of a previous page'),
  limit: z.number().int().min(1).max(L.inventory_page_max).describe(`rows per page, 1-${L.inventory_page_max}`).default(L.inventory_page_default),
});
export type InventorySearchInput = z.output<typeof InventorySearchInputSchema>;

export const SearchDealsInputSchema = z.object({
  metro: Metro.default('chicago'),
  strategy: Strategy.default('brrrr'),
  min_score: z.number().min(0).max(100).optional().describe('lowest deal score to include, 0-100; omitted means the live top-quartile cutoff'),
  max_price: MaxPrice.optional(),
  limit: z.number().int().min(1).max(L.inventory_page_max).describe(`rows to return, 1-${L.inventory_page_max}`).default(L.search_deals_limit_default),
  since_hours: z.number().positive().optional().describe('only listings first seen in the last N hours'),
});
export type SearchDealsInput = z.output<typeof SearchDealsInputSchema>;


export const DeepUnderwriteInputSchema = withSubjectRule(
  z.strictObject({
    property_id: PropertyIdParam.optional(),
    address: AddressParam.optional(),
    lat: LatParam.optional(),
    lon: LonParam.optional(),
    units: Units.optional(),
    strategy: Strategy.default('brrrr'),
    metro: Metro.default('chicago'),
    horizon_years: z.number().int().min(1).max(30).describe('years of the yearly cashflow projection, 1-30').default(5),
    custom_assumptions: CustomAssumptionsSchema.optional(),
  }),
  ['property_id', 'address', 'lat_lon'],
);
export type DeepUnderwriteInput = z.output<typeof DeepUnderwriteInputSchema>;

export const PropTypeSchema = z.enum(['mf2_4', 'sfh']);
/**
 * get_comps: prop_type defaults to mf2_4 only where neither the caller, the parcel or listing record, nor a unit count
 * says what the building is; `units` and `property_id` name the subject as the other doors do (same valuation).
 */
export const CompsInputSchema = withSubjectRule(
  z.object({
    property_id: PropertyIdParam.optional(),
    address: AddressParam.optional(),
    lat: LatParam.optional(),
    lon: LonParam.optional(),
    units: Units.optional(),
    prop_type: PropTypeSchema.optional().describe(`${PROP_TYPE_TEXT}; mf2_4 when neither units nor a listing or parcel record says`),
  }),
  ['property_id', 'address', 'lat_lon'],
);
export type CompsInput = z.output<typeof CompsInputSchema>;


/** The v1 `underwrite` tool: every key of the spec's table and no other. */
export const UnderwriteAliasInputSchema = withSubjectRule(
  z.strictObject({
    address: AddressParam.optional(),
    lat: LatParam.optional(),
    lon: LonParam.optional(),
    price: z.number().positive().optional().describe(PROFORMA_TEXT.price),
    rehab: z.number().min(0).optional().describe(PROFORMA_TEXT.rehab),
    rent: z.number().min(0).optional().describe(PROFORMA_TEXT.rent),
    units: Units.optional(),
    prop_type: z.enum(['sfh', 'mf2_4', 'condo']).optional().describe(PROFORMA_TEXT.prop_type),
    beds: z.number().int().min(0).optional().describe(PROFORMA_TEXT.beds),
    sqft: z.number().int().min(1).optional().describe(PROFORMA_TEXT.sqft),
    year_built: z.number().int().min(1800).max(2027).optional().describe(PROFORMA_TEXT.year_built),
    rate: z.number().gt(0).lte(100).optional().describe(PROFORMA_TEXT.rate),
    down_pct: z.number().min(0).max(1).optional().describe(PROFORMA_TEXT.down_pct),
    hold_months: z.number().int().min(0).optional().describe(PROFORMA_TEXT.hold_months),
    rent_override: z.number().min(0).optional().describe(PROFORMA_TEXT.rent_override),
    financing_type: FinancingTypeSchema.optional().describe(PROFORMA_TEXT.financing_type),
    mgmt_self: z.boolean().optional().describe(PROFORMA_TEXT.mgmt_self),
    hoa: z.number().min(0).optional().describe(PROFORMA_TEXT.hoa),
    owner_occupied: z.boolean().optional().describe(PROFORMA_TEXT.owner_occupied),
    scope: z.enum(['cosmetic', 'moderate', 'gut', 'structural']).optional().describe(PROFORMA_TEXT.scope),
    strategy: Strategy.default('brrrr'),
    metro: Metro.default('chicago'),
    weights: WeightsSchema.optional().describe('factor weights of the strategy blend, each 0-1: flip {margin, velocity, trend}, brrrr {ratio, dscr}, hold {coc, risk}'),
  }),
  ['address', 'lat_lon'],
);
export type UnderwriteAliasInput = z.output<typeof UnderwriteAliasInputSchema>;

/** Query numbers: the REST door turns decimal query text into numbers per this schema (http/query.ts), then bounds apply. */
const qNum = () => z.number();
/**
 * The spec's REST table names lat, lon, price and units (required); the optional inputs of the `underwrite` tool are
 * accepted too, so a point answer can carry every figure its inputs allow (rehab or sqft unlock offers and returns).
 */
export const UnderwriteQuerySchema = z.strictObject({
  lat: qNum().min(-90).max(90).describe(LatParam.description!),
  lon: qNum().min(-180).max(180).describe(LonParam.description!),
  price: qNum().positive().describe(PROFORMA_TEXT.price),
  units: qNum().int().min(1).max(4).describe(Units.description!),
  rehab: qNum().min(0).optional().describe(PROFORMA_TEXT.rehab),
  rent: qNum().min(0).optional().describe(PROFORMA_TEXT.rent),
  rent_override: qNum().min(0).optional().describe(PROFORMA_TEXT.rent_override),
  prop_type: z.enum(['sfh', 'mf2_4', 'condo']).optional().describe(PROFORMA_TEXT.prop_type),
  beds: qNum().int().min(0).max(40).optional().describe(PROFORMA_TEXT.beds),
  sqft: qNum().int().min(1).max(100_000).optional().describe(PROFORMA_TEXT.sqft),
  year_built: qNum().int().min(1800).max(2027).optional().describe(PROFORMA_TEXT.year_built),
  scope: z.enum(['cosmetic', 'moderate', 'gut', 'structural']).optional().describe(PROFORMA_TEXT.scope),
  rate: qNum().gt(0).lte(100).optional().describe(PROFORMA_TEXT.rate),
  down_pct: qNum().min(0).max(1).optional().describe(PROFORMA_TEXT.down_pct),
  hold_months: qNum().int().min(0).max(600).optional().describe(PROFORMA_TEXT.hold_months),
  financing_type: FinancingTypeSchema.optional().describe(PROFORMA_TEXT.financing_type),
  hoa: qNum().min(0).optional().describe(PROFORMA_TEXT.hoa),
  mgmt_self: z.boolean().optional().describe(PROFORMA_TEXT.mgmt_self),
  owner_occupied: z.boolean().optional().describe(PROFORMA_TEXT.owner_occupied),
  strategy: Strategy.default('brrrr'),
});
export type UnderwriteQuery = z.output<typeof UnderwriteQuerySchema>;

export const PropertyQuerySchema = withSubjectRule(
  z.strictObject({
    property_id: NonEmptySchema.max(D.text_max_chars).optional().describe(PropertyIdParam.description!),
    address: NonEmptySchema.max(D.text_max_chars).optional().describe(AddressParam.description!),
    lat: qNum().min(-90).max(90).optional().describe(LatParam.description!),
    lon: qNum().min(-180).max(180).optional().describe(LonParam.description!),
    units: qNum().int().min(1).max(4).optional().describe(Units.description!),
    prop_type: z.enum(['sfh', 'mf2_4', 'condo']).optional().describe(PROFORMA_TEXT.prop_type),
  }),
  ['property_id', 'address', 'lat_lon'],
);
export type PropertyQuery = z.output<typeof PropertyQuerySchema>;

export const AnalyticsQuerySchema = z.strictObject({ days: qNum().int().min(1).max(AUTH_LIMITS.v.analytics_max_days).describe(`days back from today to aggregate, 1-${AUTH_LIMITS.v.analytics_max_days}`) });
export const EventsQuerySchema = z.strictObject({ after: z.string().regex(/^\d{1,15}$/).optional().describe('resume after this event id (decimal digits); the Last-Event-ID header does the same') });

export const TractReportInputSchema = z.object({ geoid: GeoidInputSchema.describe('11-digit census tract GEOID of a Cook (17031...) or Lake (17097...) County tract') });
export const MarketPulseInputSchema = z.object({ metro: Metro.default('chicago') });
/** Strict: an input the report does not read (a crime rate, a demographic field) is refused, never ignored. */
export const RiskReportInputSchema = withSubjectRule(
  z.strictObject({
    address: AddressParam.optional(),
    lat: LatParam.optional(),
    lon: LonParam.optional(),
    listing_units: Units.optional(),
    year_built: z.number().int().min(1800).max(2027).optional().describe(PROFORMA_TEXT.year_built),
  }),
  ['address', 'lat_lon'],
);
export type RiskReportInput = z.output<typeof RiskReportInputSchema>;

export const MapFiltersInputSchema = z.object({
  strategy: Strategy.optional(),
  min_percentile: MinPercentile.optional(),
  max_price: MaxPrice.optional(),
  min_confidence: MinConfidence.optional(),
  statuses: z.array(z.string().min(1).max(D.text_max_chars)).max(D.statuses_max).optional().describe(`listing statuses to show (e.g. "active"), at most ${D.statuses_max}`),
});
export const FlyToInputSchema = z
  .object({
    lat: LatParam.optional(),
    lon: LonParam.optional(),
    zoom: z.number().min(D.map_zoom_range[0]).max(D.map_zoom_range[1]).optional().describe(`map zoom level, ${D.map_zoom_range[0]} (world) to ${D.map_zoom_range[1]} (building)`),
    address: NonEmptySchema.max(D.text_max_chars).optional().describe(AddressParam.description!),
  })
  .refine((v) => v.address !== undefined || (v.lat !== undefined && v.lon !== undefined), { message: 'give lat and lon, or address' });
export const HighlightInputSchema = z.object({
  ids: z.array(NonEmptySchema.max(D.text_max_chars)).min(1).max(D.highlight_max_ids).describe(`property ids (listing_id or parcel PIN) to mark on the map, 1-${D.highlight_max_ids}`),
});
