// Typed, lazily loaded, cached readers over the committed reference files in data/reference (REFERENCE_DIR).
// Never reads ../shared: only scripts/derive-reference.ts touches the raw files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE_DIR } from '../config.js';
import { AppError } from '../errors/app-error.js';
import { INGEST } from '../registry/groups/ingest.js';
import { parseCsv } from './csv.js';
import type {
  AreaDispersion, ChicagoTract, ClassCode, CookCountyLevel, County, DeedType, EqualizationFactor, FeatureCollection, LevelOfAssessment, MuniTaxRate,
  NbhdYearSales, NeighborhoodGroup, NeighborhoodProps, PinAreaTownship, PriceLevels, TownshipProps, ZipCentroid,
} from './types.js';

const cache = new Map<string, unknown>();

/** Drops every cached file (tests that swap files; the service never needs it). */
export function clearReferenceCache(): void {
  cache.clear();
}

function cached<T>(name: string, parse: (text: string) => T): T {
  if (cache.has(name)) return cache.get(name) as T;
  let text: string;
  try {
    text = readFileSync(join(REFERENCE_DIR, name), 'utf8');
  } catch (cause) {
    throw new AppError('internal_error', `reference file missing: data/reference/${name} (run npm run derive:reference)`, { cause });
  }
  let value: T;
  try {
    value = parse(text);
  } catch (cause) {
    throw new AppError('internal_error', `reference file malformed: data/reference/${name}: ${(cause as Error).message}`, { cause });
  }
  cache.set(name, value);
  return value;
}

const numOrNull = (v: string): number | null => (v === '' ? null : toNum(v));
function toNum(v: string): number {
  const n = Number(v);
  if (v === '' || !Number.isFinite(n)) throw new Error(`not a number: '${v}'`);
  return n;
}

export const loadNeighborhoods = () => cached('neighborhoods.geojson', (t) => JSON.parse(t) as FeatureCollection<NeighborhoodProps>);
export const loadTownships = () => cached('townships.geojson', (t) => JSON.parse(t) as FeatureCollection<TownshipProps>);
export const loadPriceLevels = () => cached('price_levels.json', (t) => JSON.parse(t) as PriceLevels);

export const loadZipCentroids = (): ZipCentroid[] =>
  cached('zip_centroids.csv', (t) => parseCsv(t).map((r) => ({ zip: r.zip, county: r.county as County, lat: toNum(r.lat), lon: toNum(r.lon) })));

export const loadMuniTaxRates = (): MuniTaxRate[] =>
  cached('muni_tax_rates.csv', (t) =>
    parseCsv(t).map((r) => ({
      municipality: r.municipality,
      year: toNum(r.year),
      currentRateAvg: numOrNull(r.current_rate_avg),
      effectiveRate: numOrNull(r.effective_rate),
      minTcRate: numOrNull(r.min_tc_rate),
      maxTcRate: numOrNull(r.max_tc_rate),
      medianFmvUsd: numOrNull(r.median_fmv),
      avgC2BillNoExeUsd: numOrNull(r.avg_c2_bill_noexe),
      avgC2BillWithExeUsd: numOrNull(r.avg_c2_bill_withexe),
    })),
  );

export const loadCookCountyLevel = (): CookCountyLevel[] =>
  cached('cook_county_level.csv', (t) =>
    parseCsv(t).map((r) => ({
      year: toNum(r.year),
      currentRateAvg: numOrNull(r.current_rate_avg),
      effectiveRate: numOrNull(r.effective_rate),
      avgC2BillNoExeUsd: numOrNull(r.avg_c2_bill_noexe),
      avgC2BillWithExeUsd: numOrNull(r.avg_c2_bill_withexe),
    })),
  );

export const loadEqualizationFactors = (): EqualizationFactor[] =>
  cached('equalization_factors.csv', (t) => parseCsv(t).map((r) => ({ year: toNum(r.year), tentative: toNum(r.eq_factor_tentative), final: toNum(r.eq_factor_final) })));

export const loadLevelsOfAssessment = (): LevelOfAssessment[] =>
  cached('levels_of_assessment.csv', (t) => parseCsv(t).map((r) => ({ year: toNum(r.year), classCode: r.class_code, loa: toNum(r.loa) })));

export const loadClassCodes = (): ClassCode[] =>
  cached('class_codes.csv', (t) =>
    parseCsv(t).map((r) => ({
      classCode: r.class_code,
      majorClassType: r.major_class_type,
      modelingGroup: r.modeling_group === '' ? null : r.modeling_group,
      classDesc: r.class_desc,
      minAgeYears: numOrNull(r.min_age),
      maxAgeYears: numOrNull(r.max_age),
      minSizeSqft: numOrNull(r.min_size),
      maxSizeSqft: numOrNull(r.max_size),
      unitsMin: numOrNull(r.units_min),
      unitsMax: numOrNull(r.units_max),
    })),
  );

export const loadDeedTypes = (): DeedType[] =>
  cached('deed_types.csv', (t) => parseCsv(t).map((r) => ({ code: toNum(r.code), name: r.name, armsLength: r.arms_length === 'true' })));

export const loadPinAreaTownships = (): PinAreaTownship[] =>
  cached('pin_area_townships.csv', (t) =>
    parseCsv(t).map((r) => ({ pinArea: r.pin_area, townshipCode: r.township_code, townshipName: r.township_name, lat: toNum(r.lat), lon: toNum(r.lon), method: r.method })),
  );

export const loadNeighborhoodGroups = (): NeighborhoodGroup[] =>
  cached('neighborhood_groups.csv', (t) => parseCsv(t).map((r) => ({ townNbhd: r.town_nbhd, groupName: r.group_name })));

function checkYear(year: number): void {
  const [minYear, maxYear] = INGEST.v.plausible_year_bounds;
  if (!Number.isInteger(year) || year < minYear || year > maxYear) throw new AppError('validation_failed', `year must be an integer calendar year, got ${year}`);
}

/** The row with the greatest year <= `year` among `rows`, or null when every row is later. */
function latestAtOrBefore<T extends { year: number }>(rows: T[], year: number): T | null {
  let best: T | null = null;
  for (const r of rows) if (r.year <= year && (best === null || r.year > best.year)) best = r;
  return best;
}

/** Case, punctuation and 'Village of'/'City of' prefixes ignored; 'Mount' matches the source's 'Mt'. */
export function normalizeMunicipality(name: string): string {
  const known = MUNICIPALITY_KEYS.get(name);
  if (known !== undefined) return known;
  const key = name.toLowerCase().replace(/^(city|village|town) of\s+/, '').replace(/\bmount\b/g, 'mt').replace(/\bsaint\b/g, 'st')
    .replace(/[^a-z0-9]+/g, ' ').trim();
  if (MUNICIPALITY_KEYS.size >= MUNICIPALITY_KEYS_MAX) MUNICIPALITY_KEYS.clear();
  MUNICIPALITY_KEYS.set(name, key);
  return key;
}

/**
 * normalizeMunicipality's memo: bulk scoring asks about the same few hundred municipality names millions of times
 * (segment, tax triad, tax rate; four regular expressions each). Reset when full (only arbitrary caller text fills it).
 */
const MUNICIPALITY_KEYS = new Map<string, string>();
const MUNICIPALITY_KEYS_MAX = 10_000;

/**
 * Cook municipal tax measures for the latest year <= `year` the file has (2006-2023), with that year as yearUsed.
 * Null when the municipality is unknown or every row is later than `year`.
 */
export function taxRateFor(municipality: string, year: number): (MuniTaxRate & { yearUsed: number }) | null {
  checkYear(year);
  const row = latestAtOrBefore(muniRatesIndex().get(normalizeMunicipality(municipality)) ?? [], year);
  return row ? { ...row, yearUsed: row.year } : null;
}

/** `rows` grouped by `keyOf`, built once per loaded file (keyed on the array), so a lookup reads one group, not the file. */
function groupedOnce<R>(cache: WeakMap<R[], Map<string, R[]>>, rows: R[], keyOf: (r: R) => string): Map<string, R[]> {
  let ix = cache.get(rows);
  if (!ix) {
    ix = new Map();
    for (const r of rows) {
      const k = keyOf(r);
      (ix.get(k) ?? ix.set(k, []).get(k)!).push(r);
    }
    cache.set(rows, ix);
  }
  return ix;
}

/** The rate file grouped by normalized municipality. */
const muniIndexes = new WeakMap<MuniTaxRate[], Map<string, MuniTaxRate[]>>();
const muniRatesIndex = (): Map<string, MuniTaxRate[]> => groupedOnce(muniIndexes, loadMuniTaxRates(), (r) => normalizeMunicipality(r.municipality));

/** State equalization factor (final, and tentative) for the latest year <= `year` (1980-2023); null before 1980. */
export function equalizationFactorFor(year: number): { factor: number; tentative: number; yearUsed: number } | null {
  checkYear(year);
  const row = latestAtOrBefore(loadEqualizationFactors(), year);
  return row ? { factor: row.final, tentative: row.tentative, yearUsed: row.year } : null;
}

/**
 * Level of assessment (AV / market value) for a residential class ('2xx') or '0', latest year <= `year`
 * (2000-2023). Null for a class the file does not carry or a year before 2000.
 */
export function levelOfAssessment(classCode: string | number, year: number): { loa: number; yearUsed: number } | null {
  checkYear(year);
  const code = String(classCode).trim();
  const row = latestAtOrBefore(loaIndex().get(code) ?? [], year);
  return row ? { loa: row.loa, yearUsed: row.year } : null;
}

/** The level-of-assessment file grouped by class code. */
const loaIndexes = new WeakMap<LevelOfAssessment[], Map<string, LevelOfAssessment[]>>();
const loaIndex = (): Map<string, LevelOfAssessment[]> => groupedOnce(loaIndexes, loadLevelsOfAssessment(), (r) => r.classCode);

export const loadNbhdSales = (): NbhdYearSales[] =>
  cached('nbhd_sales.csv', (t) => parseCsv(t).map((r) => ({ townNbhd: r.town_nbhd, year: toNum(r.year), count: toNum(r.count), median: toNum(r.median) })));

export const loadChicagoTracts = (): ChicagoTract[] =>
  cached('chicago_tracts.csv', (t) => parseCsv(t).map((r) => ({ geoid: r.geoid, name: r.name, lon: toNum(r.lon), lat: toNum(r.lat) })));

export const loadAreaDispersion = (): AreaDispersion[] =>
  cached('area_dispersion.csv', (t) =>
    parseCsv(t).map((r) => ({
      pinArea: r.pin_area, year: toNum(r.year), n: toNum(r.n), medianLog: toNum(r.median_log), iqrLog: toNum(r.iqr_log),
      p90p10Log: toNum(r.p90_p10_log), tailShare: toNum(r.tail_share), centeredLogQuantiles: r.centered_log_q01_q99.split(' ').map(toNum),
    })),
  );
