// Types of the kernel door: the sales columns it loads, the time-index series, a subject, and a comp-search result.
// Shared by the WASM door, the TypeScript reference (bench/reference) and the worker pool.

/** Sales columns in snapshot row order (names as in src/store/columns.ts SALES_COLUMNS, camelCased). */
export type KernelColumns = {
  parcelIdx: Uint32Array;
  county: Uint8Array;
  lat: Float64Array;
  lon: Float64Array;
  saleDay: Int32Array;
  priceUsd: Float64Array;
  sqft: Float64Array;
  beds: Int8Array;
  ptype: Uint8Array;
  condition: Uint8Array;
  deedType: Uint8Array;
  numParcels: Uint16Array;
};
export type ColumnName = keyof KernelColumns;

/** Monthly price levels of one county; month = year * 12 + (month - 1), strictly increasing; level > 0. */
export type TimeIndexSeries = { county: number; months: Int32Array | number[]; levels: Float64Array | number[] };

export type Subject = {
  lat: number;
  lon: number;
  /** Living area; null when unknown. */
  sqft: number | null;
  /** null when unknown. */
  beds: number | null;
  /** PTYPE_CODE value. */
  ptype: number;
  /** COUNTY_CODE value. */
  county: number;
  /** Days since 1970-01-01; comps must have sold strictly before. */
  asOfDay: number;
  /** Bitmask of allowed conditions (STRATUM in src/kernel/params.ts). */
  stratumMask: number;
  /** The subject's own parcel (never its own comp), or null. */
  excludeParcelIdx?: number | null;
};

export type QueryOptions = {
  /** Highest ladder step to try (1..3, default 3). */
  maxStep?: 1 | 2 | 3;
  /** Replaces the ladder with one step (e.g. the as-is relaxed step, 1.0 mi / 48 months). Reported as step 0. */
  override?: { radiusMi: number; windowDays: number } | null;
};

export type AcceptedComp = {
  /** Snapshot row. */
  row: number;
  distMi: number;
  indexFactor: number;
  indexedPrice: number;
  /** null when not applied (a sqft unknown). */
  glaAdj: number | null;
  adjustedPrice: number;
  similarity: number;
};

export type CompStats = { n: number; median: number | null; q25: number | null; q75: number | null; fsd: number | null };

export type CompsResult = {
  /** Ladder step used (1..3), 0 for an override step. */
  step: number;
  /** Comps that passed every filter and the trim (before the cap of 12). */
  nQualified: number;
  /** Selected comps, best first (at most 12). */
  accepted: AcceptedComp[];
  /** Rejected candidates of the step used, by row ascending (empty in batch mode). */
  rejected: Array<{ row: number; reason: string }>;
  stats: CompStats;
};
