// Socrata SODA 2.x query URLs for the Cook County assessor datasets: `{base}/{dataset}.json?$select&$where&$order&$limit`.
// Values in $where are quoted SoQL literals; PINs are digits only, so quoting cannot be broken by input.
import { AppError } from '../../errors/app-error.js';
import { FALLBACK } from '../../registry/groups/fallback.js';
import { isoOfDay } from '../../store/days.js';

export type SodaParams = { $select?: string; $where: string; $order?: string; $limit: number; $offset?: number };

/** The request URL; `base` is config.opendataBaseUrl (e.g. https://datacatalog.cookcountyil.gov/resource). */
export function sodaUrl(base: string, dataset: string, p: SodaParams): string {
  const u = new URL(`${base.replace(/\/+$/, '')}/${dataset}.json`);
  for (const [k, v] of Object.entries(p)) if (v !== undefined) u.searchParams.set(k, String(v));
  return u.toString();
}

const isoTs = (day: number): string => `${isoOfDay(day)}T00:00:00.000`;
const num = (x: number): string => x.toFixed(6);

/** Parcel universe rows inside a lat/lon box (the circle is applied client-side by haversine). */
export function universeQuery(box: { minLat: number; maxLat: number; minLon: number; maxLon: number }): SodaParams {
  return {
    $select: 'pin,year,class,lat,lon,zip_code,census_tract_geoid',
    $where: `lat between ${num(box.minLat)} and ${num(box.maxLat)} AND lon between ${num(box.minLon)} and ${num(box.maxLon)}`,
    $order: 'pin ASC, year DESC',
    $limit: FALLBACK.v.page_limit,
  };
}

function pinList(pins: readonly string[]): string {
  for (const p of pins) if (!/^\d{14}$/.test(p)) throw new AppError('internal_error', `not a 14-digit PIN: ${p}`);
  return pins.map((p) => `'${p}'`).join(',');
}

/** Sales of the given PINs in [fromDay, toDay). */
export function salesQuery(pins: readonly string[], fromDay: number, toDay: number): SodaParams {
  return {
    $select: 'pin,year,class,sale_date,sale_price,doc_no,deed_type,num_parcels_sale',
    $where: `pin in(${pinList(pins)}) AND sale_date >= '${isoTs(fromDay)}' AND sale_date < '${isoTs(toDay)}'`,
    $order: 'sale_date DESC',
    $limit: FALLBACK.v.page_limit,
  };
}

/** Characteristics rows (every year) of the given PINs. */
export function charsQuery(pins: readonly string[]): SodaParams {
  return {
    $select: 'pin,year,class,char_yrblt,char_bldg_sf,char_beds,char_apts,char_repair_cnd,char_renovation',
    $where: `pin in(${pinList(pins)})`,
    $order: 'pin ASC, year DESC',
    $limit: FALLBACK.v.page_limit,
  };
}
