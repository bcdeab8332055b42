// Hand-built sales corpora for the Tier-1 tests: rows placed at chosen distances (miles due north of the subject)
// and ages (days before the as-of day), typed columns built directly, plus a one-tract valuation context.
import { createKernel } from '../../src/kernel/index.js';
import type { TractRecord } from '../../src/ingest/loaders/tracts.js';
import { CONDITION_CODE, COUNTY_CODE, DEED_CODE, PTYPE_CODE } from '../../src/store/columns.js';
import { kernelColumnsOf } from '../../src/valuation/comps/kernel-columns.js';
import { buildParcelSalesIndex } from '../../src/valuation/comps/flip-pairs.js';
import type { SalesColumns } from '../../src/store/sales-columns.js';
import type { CalibrationTable } from '../../src/valuation/decide/segment.js';
import { buildSubjectData } from '../../src/valuation/subject/subject.js';
import type { ValuationContext } from '../../src/valuation/value-context.js';

export const AS_OF_DAY = 20_400; // 2025-11-08
export const AS_OF_ISO = '2025-11-08';
export const SUBJECT = { lat: 41.9, lon: -87.7 } as const;
/** Degrees of latitude per mile (69.05 mi per degree). */
const DEG_PER_MI = 1 / 69.05;

export type Row = {
  distMi?: number;
  daysAgo?: number;
  price: number;
  sqft?: number | null;
  beds?: number | null;
  cond?: keyof typeof CONDITION_CODE;
  ptype?: keyof typeof PTYPE_CODE;
  county?: keyof typeof COUNTY_CODE;
  deed?: keyof typeof DEED_CODE;
  parcel?: number;
  /** Bearing east instead of north (same distance). */
  east?: boolean;
};

export function salesOf(rows: readonly Row[], tracts: readonly string[] = ['17031000100']): SalesColumns {
  const n = rows.length;
  const c: SalesColumns = {
    length: n,
    pin: (i) => `1701100${String(rows[i].parcel ?? i).padStart(7, '0')}`,
    parcelIdx: new Uint32Array(n), county: new Uint8Array(n), lat: new Float64Array(n), lon: new Float64Array(n), saleDay: new Int32Array(n),
    dateKnown: new Uint8Array(n).fill(1), priceUsd: new Float64Array(n), sqft: new Float64Array(n), beds: new Int8Array(n), yearBuilt: new Int16Array(n).fill(-1),
    units: new Uint8Array(n), ptype: new Uint8Array(n), condition: new Uint8Array(n), deedType: new Uint8Array(n), numParcels: new Uint16Array(n).fill(1),
    tractIdx: new Uint16Array(n), tracts,
  };
  rows.forEach((r, i) => {
    const d = (r.distMi ?? 0.1) * DEG_PER_MI;
    c.parcelIdx[i] = r.parcel ?? 1000 + i;
    c.county[i] = COUNTY_CODE[r.county ?? 'cook'];
    c.lat[i] = SUBJECT.lat + (r.east ? 0 : d);
    c.lon[i] = SUBJECT.lon + (r.east ? d / Math.cos((SUBJECT.lat * Math.PI) / 180) : 0);
    c.saleDay[i] = AS_OF_DAY - (r.daysAgo ?? 30);
    c.priceUsd[i] = r.price;
    c.sqft[i] = r.sqft === null ? NaN : (r.sqft ?? 1500);
    c.beds[i] = r.beds === null ? -1 : (r.beds ?? 3);
    c.units[i] = 1;
    c.ptype[i] = PTYPE_CODE[r.ptype ?? 'sfh'];
    c.condition[i] = CONDITION_CODE[r.cond ?? 'renovated'];
    c.deedType[i] = DEED_CODE[r.deed ?? 'warranty'];
  });
  return c;
}

/** n renovated sfh comps 0.1–0.3 mi away, 30–120 days old, prices cycling through `prices`. */
export function renovatedRows(n: number, prices: readonly number[] = [300_000, 310_000, 320_000, 290_000, 305_000]): Row[] {
  return Array.from({ length: n }, (_, i) => ({ distMi: 0.1 + (i % 5) * 0.05, daysAgo: 30 + (i % 4) * 30, price: prices[i % prices.length] }));
}

/** A square tract of ±`halfDeg` around the subject (Chicago unless muni given). */
export function tractAround(geoid = '17031000100', muni: string | null = 'Chicago', halfDeg = 0.05, center: { lat: number; lon: number } = SUBJECT): TractRecord {
  const { lat, lon } = center;
  const ring = [[lon - halfDeg, lat - halfDeg], [lon + halfDeg, lat - halfDeg], [lon + halfDeg, lat + halfDeg], [lon - halfDeg, lat + halfDeg], [lon - halfDeg, lat - halfDeg]];
  return {
    geoid, county: geoid.startsWith('17097') ? 'lake' : 'cook', name: null, muni, vintage: 'test',
    polygon: { type: 'Polygon', coordinates: [ring] }, bbox: [lon - halfDeg, lat - halfDeg, lon + halfDeg, lat + halfDeg],
  };
}

/** A calibration table with one row for `segment` (ratios as given), display as chosen. */
export function calTable(segment: string, display: 'point' | 'range' | 'suppress', q: [number, number] = [0.9, 1.12]): CalibrationTable {
  const m = { n: 100, mdape: 0.08, ppe10: 0.6, coverage80: 0.8, meanWidth80: q[1] - q[0], cod: 9, prd: 1.01, prb: 0, suppressionRate: 0.1 };
  return {
    version: 'cal-test-1', createdAt: '2025-11-01T00:00:00Z', snapshotId: 's-test', modelVersion: 'm', registryVersion: 'r',
    holdout: { startDay: 0, splitDay: 1, endDay: 2 },
    segments: { [segment]: { segment, q80Lo: q[0], q80Hi: q[1], confidenceP10: 61, display, displayReason: 'test', nCalibration: 100, test: m } },
    overall: m,
  };
}

export type CtxOptions = { tracts?: TractRecord[]; ingested?: string[]; calibration?: CalibrationTable | null };

export function contextOf(sales: SalesColumns, o: CtxOptions = {}): ValuationContext {
  const tracts = o.tracts ?? [tractAround()];
  return {
    kernel: createKernel(kernelColumnsOf(sales), []),
    sales,
    parcelSales: buildParcelSalesIndex(sales),
    subjects: buildSubjectData(tracts, null, []),
    ingestedTracts: new Set(o.ingested ?? tracts.map((t) => t.geoid)),
    timeIndex: { series: [], cutoffDay: AS_OF_DAY, note: 'no index (test corpus)', counts: {} },
    timeIndexDigest: 'test',
    calibration: o.calibration ?? null,
    snapshotId: 's-test',
    vintages: null,
    now: () => new Date(`${AS_OF_ISO}T12:00:00Z`),
    hooks: {},
  };
}
