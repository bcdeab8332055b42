// Arrow column names and codes of a sales snapshot: the one contract between ingest, the store, the WASM kernel
// and the TypeScript reference. A snapshot holds every sale (arms-length or not: the kernel rejects with reasons).

export const SALES_COLUMNS = {
  pin: 'pin', //               Utf8     parcel id (Cook 14 digits, Lake 10 digits)
  parcelIdx: 'parcel_idx', //  Uint32   dense parcel id within the snapshot (same PIN, same id)
  county: 'county', //         Uint8    COUNTY_CODE
  lat: 'lat', //               Float64  degrees
  lon: 'lon', //               Float64  degrees
  saleDay: 'sale_day', //      Int32    days since 1970-01-01 UTC
  dateKnown: 'date_known', //  Uint8    1 exact date, 0 year granularity (sale_day is then July 1)
  priceUsd: 'price_usd', //    Float64
  sqft: 'sqft', //             Float64  living area; NaN when unknown
  beds: 'beds', //             Int8     -1 when unknown
  yearBuilt: 'year_built', //  Int16    -1 when unknown
  units: 'units', //           Uint8    1..4; 0 when unknown
  ptype: 'ptype', //           Uint8    PTYPE_CODE
  condition: 'condition', //   Uint8    CONDITION_CODE
  deedType: 'deed_type', //    Uint8    DEED_CODE
  numParcels: 'num_parcels', //Uint16   parcels conveyed by the deed (>1 is a multi-parcel sale)
  tractIdx: 'tract_idx', //    Uint16   index into the snapshot's tract list; TRACT_NONE when outside
  conditionProb: 'condition_prob', //     Float32  probability of the assigned condition; NaN when unknown
  conditionSource: 'condition_source', // Uint8    CONDITION_SOURCE_CODE: where the condition came from
} as const;

export const COUNTY_CODE = { unknown: 0, cook: 1, lake: 2 } as const;
export const PTYPE_CODE = { sfh: 0, mf2_4: 1, condo: 2 } as const;
export const CONDITION_CODE = { distressed: 0, dated: 1, renovated: 2, new: 3, unknown: 255 } as const;
/**
 * Where a sale's condition came from (src/ingest/condition/): the feed's own column, a same-PIN resale leg, the
 * sale's position against the cross-fitted hedonic expectation, the year built (new), the CCAO flags alone, or nothing.
 */
export const CONDITION_SOURCE_CODE = { feed: 0, resale_leg: 1, hedonic: 2, year_built: 3, flags: 4, unknown: 255 } as const;
export type ConditionSourceName = keyof typeof CONDITION_SOURCE_CODE;
/** CCAO deed-type codes (sale.deed_type): 1 Warranty, 2 Trustee, 3 Quit claim, 4 Executor, 5 Other, 6 Beneficiary, 99 Unknown. */
export const DEED_CODE = { warranty: 1, trustee: 2, quitclaim: 3, executor: 4, other: 5, beneficiary: 6, unknown: 99 } as const;
export const TRACT_NONE = 0xffff;

export type CountyName = keyof typeof COUNTY_CODE;
export type PtypeName = keyof typeof PTYPE_CODE;
export type ConditionName = Exclude<keyof typeof CONDITION_CODE, 'unknown'>;

export { REJECTION_REASONS, type RejectionReason } from '../contracts/comp.js';

/** Columns of a snapshot's parcel table (store `parcels` sub-db, same key as the sales snapshot); row i is parcel_idx i. */
export const PARCEL_COLUMNS = {
  pin: 'pin', //               Utf8     Cook 14 digits, Lake 10 digits
  county: 'county', //         Uint8    COUNTY_CODE
  lat: 'lat', //               Float64  degrees
  lon: 'lon', //               Float64  degrees
  zip: 'zip', //               Utf8     5 digits; '' when unknown
  tractIdx: 'tract_idx', //    Uint16   index into the snapshot's tract list; TRACT_NONE when outside
  classCode: 'class', //       Utf8     assessor class as given (CCAO 3 digits, Lake GIS text)
  ptype: 'ptype', //           Uint8    PTYPE_CODE
  units: 'units', //           Uint8    1..4; 0 when unknown
  sqft: 'sqft', //             Float64  NaN when unknown
  beds: 'beds', //             Int8     -1 when unknown
  yearBuilt: 'year_built', //  Int16    -1 when unknown
  condition: 'condition', //   Uint8    CONDITION_CODE (latest known)
  address: 'address', //       Utf8     nullable; situs address when the source has one
} as const;
