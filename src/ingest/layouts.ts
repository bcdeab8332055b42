// The raw file layouts the loaders accept: real open-data column names (CCAO, Lake County GIS, HUD SAFMR) plus
// our listings feed. The synthetic generator writes exactly these; a real export with the same columns loads too.
// `required` columns must be present (a missing one rejects the file); `optional` ones may be absent.

export type Layout = { file: string; description: string; required: readonly string[]; optional: readonly string[] };

/** CCAO "Parcel Sales" (Cook County open data wvhk-k5uv). sale_date as ISO date or ISO timestamp. */
export const CCAO_SALES: Layout = {
  file: 'ccao_parcel_sales.csv',
  description: 'CCAO Parcel Sales (open data wvhk-k5uv)',
  required: ['pin', 'year', 'township_code', 'nbhd', 'class', 'sale_date', 'sale_price', 'doc_no', 'deed_type', 'num_parcels_sale'],
  optional: [
    'is_mydec_date', 'seller_name', 'buyer_name', 'is_multisale', 'sale_type',
    'sale_filter_same_sale_within_365', 'sale_filter_less_than_10k', 'sale_filter_deed_type', 'row_id',
    // Synthetic-only extension, absent from real exports: the building's condition at the time of sale.
    // When absent or blank, condition is inferred at ingest (see src/ingest/condition/).
    'sale_condition',
  ],
};

/** CCAO "Single and Multi-Family Improvement Characteristics" (open data x54s-btds), one row per PIN-year-card. */
export const CCAO_RES_CHARS: Layout = {
  file: 'ccao_res_characteristics.csv',
  description: 'CCAO residential improvement characteristics (open data x54s-btds)',
  required: ['pin', 'year', 'class', 'township_code', 'char_yrblt', 'char_bldg_sf', 'char_beds', 'char_apts', 'char_repair_cnd', 'char_renovation'],
  optional: [
    'card_num', 'char_land_sf', 'char_rooms', 'char_fbath', 'char_hbath', 'char_frpl', 'char_type_resd', 'char_cnst_qlty',
    'char_tp_dsgn', 'char_attic_fnsh', 'char_gar1_att', 'char_gar1_area', 'char_gar1_size', 'char_gar1_cnst', 'char_attic_type',
    'char_bsmt', 'char_ext_wall', 'char_heat', 'char_bsmt_fin', 'char_roof_cnst', 'char_use', 'char_age', 'char_site',
    'char_ncu', 'char_porch', 'char_air', 'char_tp_plan', 'row_id',
  ],
};

/** CCAO "Parcel Universe" (open data nj4t-kc8j): location of every PIN. */
export const CCAO_PARCEL_UNIVERSE: Layout = {
  file: 'ccao_parcel_universe.csv',
  description: 'CCAO Parcel Universe (open data nj4t-kc8j)',
  required: ['pin', 'year', 'class', 'township_code', 'nbhd_code', 'lat', 'lon', 'zip_code'],
  optional: ['pin10', 'triad_name', 'triad_code', 'township_name', 'tax_code', 'tax_municipality_name', 'census_tract_geoid', 'x_3435', 'y_3435'],
};

/** Lake County (IL) GIS parcel sales layer, one row per sale with building facts and location. */
export const LAKE_GIS_SALES: Layout = {
  file: 'lake_gis_sales.csv',
  description: 'Lake County GIS parcel sales',
  required: ['PIN', 'SALE_DATE', 'SALE_PRICE', 'DEED_TYPE', 'PROP_CLASS', 'LATITUDE', 'LONGITUDE', 'ZIP'],
  optional: ['BLDG_SQFT', 'BEDROOMS', 'YEAR_BUILT', 'UNITS', 'CONDITION', 'TOWNSHIP', 'MULTI_PARCEL', 'NUM_PARCELS', 'DOC_NUM', 'SITE_ADDRESS'],
};

/** HUD Small Area Fair Market Rents, one row per ZIP (gross rent, 40th percentile). */
export const HUD_SAFMR: Layout = {
  file: 'hud_safmr.csv',
  description: 'HUD Small Area Fair Market Rents by ZIP',
  required: ['ZIP Code', 'HUD Area Code', 'SAFMR 0BR', 'SAFMR 1BR', 'SAFMR 2BR', 'SAFMR 3BR', 'SAFMR 4BR'],
  optional: ['HUD Metro Fair Market Rent Area Name', 'fiscal_year'],
};

/** Listings feed: active listings with addresses and prices. */
export const LISTINGS: Layout = {
  file: 'listings.csv',
  description: 'Listings feed (active residential listings)',
  required: ['listing_id', 'address', 'zip', 'price', 'url', 'lat', 'lon', 'list_date', 'status'],
  optional: ['pin', 'units', 'beds', 'sqft', 'year_built', 'property_type', 'condition', 'county'],
};

/** Listing history: one row per listing event. */
export const LISTING_HISTORY: Layout = {
  file: 'listing_history.csv',
  description: 'Listing history (events per listing)',
  required: ['listing_id', 'event_date', 'event', 'price'],
  optional: [],
};

/** Census tracts with polygons (GeoJSON FeatureCollection; properties listed here). */
export const TRACTS_GEOJSON = {
  file: 'tracts.geojson',
  description: 'Census tracts (GeoJSON), properties GEOID, COUNTYFP, NAMELSAD, muni, vintage',
  requiredProperties: ['GEOID', 'COUNTYFP', 'muni', 'vintage'],
} as const;

export const ALL_CSV_LAYOUTS = [CCAO_SALES, CCAO_RES_CHARS, CCAO_PARCEL_UNIVERSE, LAKE_GIS_SALES, HUD_SAFMR, LISTINGS, LISTING_HISTORY] as const;

/** Ground truth of the synthetic generator: written to a separate folder, never read by the serving path. */
export const GROUND_TRUTH_DIR = 'truth';
export const GROUND_TRUTH_FILE = 'sales_truth.csv';
export const RAW_DIR = 'raw';
