// Typed shapes of the committed reference files in data/reference (one type per file or row).
import type { MultiPolygonGeometry } from './geo.js';

export type NeighborhoodProps = { town_nbhd: string; township_code: string; township_name: string; triad_code: string; triad_name: string };
export type TownshipProps = { township_code: string; township_name: string; triad_code: string };
export type Feature<P> = { type: 'Feature'; properties: P; geometry: MultiPolygonGeometry };
export type FeatureCollection<P> = { type: 'FeatureCollection'; features: Array<Feature<P>> };

export type County = 'cook' | 'lake';
export type ZipCentroid = { zip: string; county: County; lat: number; lon: number };

/** Rates are fractions (0.082 = 8.2%); null where the source has no value. */
export type MuniTaxRate = {
  municipality: string;
  year: number;
  currentRateAvg: number | null;
  effectiveRate: number | null;
  minTcRate: number | null;
  maxTcRate: number | null;
  medianFmvUsd: number | null;
  avgC2BillNoExeUsd: number | null;
  avgC2BillWithExeUsd: number | null;
};
export type CookCountyLevel = { year: number; currentRateAvg: number | null; effectiveRate: number | null; avgC2BillNoExeUsd: number | null; avgC2BillWithExeUsd: number | null };

export type EqualizationFactor = { year: number; tentative: number; final: number };
export type LevelOfAssessment = { year: number; classCode: string; loa: number };

/** Bounds are null when unbounded (the source's Infinity) or, for units, when the description states none. */
export type ClassCode = {
  classCode: string;
  majorClassType: string;
  modelingGroup: string | null;
  classDesc: string;
  minAgeYears: number | null;
  maxAgeYears: number | null;
  minSizeSqft: number | null;
  maxSizeSqft: number | null;
  unitsMin: number | null;
  unitsMax: number | null;
};
export type DeedType = { code: number; name: string; armsLength: boolean };

export type PriceStats = { n: number; median: number; p10: number; p25: number; p75: number; p90: number; mean_log: number; sd_log: number };
export type PriceGroup = { all?: PriceStats; noncondo?: PriceStats; condo?: PriceStats };
export type PriceLevels = {
  source: string;
  quantile_type: 'hyndman-fan-7';
  min_group_n: number;
  n_sales: number;
  years: number[];
  county: Record<string, PriceGroup>;
  /** keyed by 2-digit PIN area, then by year ('2015'..) or 'all_years' */
  by_area: Record<string, Record<string, PriceGroup>>;
  assessment_ratio: Record<string, { n: number; median: number }>;
};

export type PinAreaTownship = { pinArea: string; townshipCode: string; townshipName: string; lat: number; lon: number; method: string };

/** A CCAO neighborhood group; groupName keeps the source spelling (`berywn`, `oak_park`, `Lake View 1`). */
export type NeighborhoodGroup = { townNbhd: string; groupName: string };

/** Real class-2 (residential) sales of one CCAO neighborhood in one year (nbhd_sales.csv, cw353-sales-map). */
export type NbhdYearSales = { townNbhd: string; year: number; count: number; median: number };
/** One real City of Chicago census tract: GEOID, name and Census internal point (chicago_tracts.csv). */
export type ChicagoTract = { geoid: string; name: string; lon: number; lat: number };
/** Spread of real non-condo ln(sale price) in one PIN area and year around its median (area_dispersion.csv). */
export type AreaDispersion = {
  pinArea: string; year: number; n: number; medianLog: number; iqrLog: number; p90p10Log: number; tailShare: number;
  /** ln(price) − median_log at the 1st..99th percentiles (type 7). */
  centeredLogQuantiles: number[];
};
