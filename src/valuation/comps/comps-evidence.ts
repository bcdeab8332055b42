// Kernel comp results → the spec's Comp and reason-tagged rejection records, read from the snapshot's sales columns.
// Every Comp field comes from the comp's own sale row; nothing here touches the subject's fields.
import type { Comp, CompRejection } from '../../contracts/comp.js';
import type { AcceptedComp } from '../../kernel/types.js';
import { CONDITION_CODE, CONDITION_SOURCE_CODE } from '../../store/columns.js';
import { type SalesColumns } from '../../store/sales-columns.js';
import { isoOfDay, yearOfDay } from '../../store/days.js';
import { DOORS } from '../../registry/groups/doors.js';

const COORD_SCALE = 10 ** DOORS.v.comp_coord_decimals;
const roundCoord = (deg: number): number => Math.round(deg * COORD_SCALE) / COORD_SCALE;
const MEASURE_SCALE = 10 ** DOORS.v.comp_measure_decimals;
/** A kernel-computed measure (a comp's distance and similarity, the comps' dispersion) at doors.comp_measure_decimals: the same on either kernel front-end. */
export const roundMeasure = (x: number): number => Math.round(x * MEASURE_SCALE) / MEASURE_SCALE;

/** Where a sale row's parcel is, rounded (doors.comp_coord_decimals: ~1 m), so a client can draw the comp. */
export function saleLocationOf(c: SalesColumns, row: number): { lat: number; lon: number } {
  return { lat: roundCoord(c.lat[row]), lon: roundCoord(c.lon[row]) };
}

const CONDITION_BY_CODE: Record<number, Comp['condition']> = {
  [CONDITION_CODE.distressed]: 'distressed',
  [CONDITION_CODE.dated]: 'dated',
  [CONDITION_CODE.renovated]: 'renovated',
  [CONDITION_CODE.new]: 'new',
};

/** Condition name of a sale row, or null for unknown condition. */
export function conditionName(c: SalesColumns, row: number): Comp['condition'] | null {
  return CONDITION_BY_CODE[c.condition[row]] ?? null;
}

const SOURCE_BY_CODE = new Map<number, Comp['condition_source']>(Object.entries(CONDITION_SOURCE_CODE).map(([name, code]) => [code, name as Comp['condition_source']]));

/** Where a sale row's condition came from and its probability (3 decimals); unknown / null when not recorded. */
export function conditionProvenanceOf(c: SalesColumns, row: number): Pick<Comp, 'condition_source' | 'condition_prob'> {
  const source = c.conditionSource === undefined ? 'unknown' : (SOURCE_BY_CODE.get(c.conditionSource[row]) ?? 'unknown');
  const p = c.conditionProb?.[row];
  return { condition_source: source, condition_prob: p === undefined || !Number.isFinite(p) ? null : Math.round(Math.min(1, Math.max(0, p)) * 1000) / 1000 };
}

/** ISO sale date when the source carries the day, else null (year-granularity rows). */
export function saleDateOf(c: SalesColumns, row: number): string | null {
  return c.dateKnown[row] === 1 ? isoOfDay(c.saleDay[row]) : null;
}

export function saleYearOf(c: SalesColumns, row: number): number {
  return yearOfDay(c.saleDay[row]);
}

/** One accepted comp as a spec Comp (the ARV stratum: renovated or new). */
export function toComp(c: SalesColumns, a: AcceptedComp): Comp {
  const cond = conditionName(c, a.row);
  if (cond === null) throw new Error(`comp row ${a.row} has unknown condition; the ARV stratum excludes it`);
  // Members written out rather than spread (same order): a spread copies through a temporary per record.
  const at = saleLocationOf(c, a.row);
  const prov = conditionProvenanceOf(c, a.row);
  return {
    pin: c.pin(a.row),
    price: c.priceUsd[a.row],
    indexed_price: a.indexedPrice,
    index_factor: a.indexFactor,
    gla_adj: a.glaAdj,
    sale_year: saleYearOf(c, a.row),
    sale_date: saleDateOf(c, a.row),
    dist_mi: roundMeasure(a.distMi),
    lat: at.lat,
    lon: at.lon,
    sqft: c.sqft[a.row] > 0 ? c.sqft[a.row] : null,
    beds: c.beds[a.row] >= 0 ? c.beds[a.row] : null,
    condition: cond,
    condition_source: prov.condition_source,
    condition_prob: prov.condition_prob,
    similarity: roundMeasure(a.similarity),
  };
}

/**
 * One rejected candidate with its reason, distance from the subject (`distFrom`: haversineFrom the subject) and date.
 * A dense subject has a thousand: no temporary location object per record.
 */
export function toRejection(c: SalesColumns, r: { row: number; reason: string }, distFrom: (lat: number, lon: number) => number): CompRejection {
  const row = r.row;
  return {
    pin: c.pin(row),
    reason: r.reason,
    sale_date: isoOfDay(c.saleDay[row]),
    price: Math.max(0, c.priceUsd[row]),
    dist_mi: distFrom(c.lat[row], c.lon[row]),
    lat: roundCoord(c.lat[row]),
    lon: roundCoord(c.lon[row]),
  };
}

/** Rejection reasons that mean "not a market sale" (a price that must not set a ceiling or a range). */
export const NON_MARKET_REASONS: ReadonlySet<string> = new Set([
  'rapid_resale_within_90d', 'price_under_10k', 'multi_parcel_sale', 'non_arms_deed_type', 'quitclaim_deed', 'duplicate_sale_within_365d',
]);
