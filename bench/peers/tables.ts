// The snapshot as the SQL peers load it: one CSV of the kernel's own sales columns (the ones createKernel gets, in
// snapshot row order, plus what a database would store to index them: unit vector, grid cell, sale month), one CSV
// of subjects and the kernel's time-index levels as a dense (county, month) table. Geometry follows the kernel
// (crates/avm-kernel/src/geo.rs through bench/reference/ref-math.ts): the peers test the same chord form of the
// haversine against the same sin²(r / 2R) bound, so they can return exactly the kernel's row sets.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { KernelParams } from '../../src/kernel/params.js';
import type { KernelColumns, Subject, TimeIndexSeries } from '../../src/kernel/types.js';
import { deedClassTable, conditionBit } from '../../src/kernel/params.js';
import { BOX_SLACK, DEG_TO_RAD, EARTH_RADIUS_MI, havOfMi, lonHalfWidth, monthNumber } from '../reference/ref-math.js';

export type Unit = [number, number, number];

/** Unit vector of a position in degrees, computed as the kernel's index build does. */
export function unitVector(latDeg: number, lonDeg: number): Unit {
  const [lat, lon] = [latDeg * DEG_TO_RAD, lonDeg * DEG_TO_RAD];
  return [Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)];
}

const indexable = (lat: number, lon: number): boolean => Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 85 && Math.abs(lon) <= 180;

/** Grid of the batch join: cells at least as wide as the step's search box anywhere in the corpus, so every
 * candidate lies in the subject's cell or one of its 8 neighbours. */
export type Grid = { lat0: number; lon0: number; cellLat: number; cellLon: number };

export function gridFor(c: KernelColumns, radiusMi: number): Grid {
  let [lat0, lon0, maxAbsLat] = [Infinity, Infinity, 0];
  for (let i = 0; i < c.lat.length; i++) {
    if (!indexable(c.lat[i], c.lon[i])) continue;
    lat0 = Math.min(lat0, c.lat[i]);
    lon0 = Math.min(lon0, c.lon[i]);
    maxAbsLat = Math.max(maxAbsLat, Math.abs(c.lat[i]));
  }
  const ang = radiusMi / EARTH_RADIUS_MI;
  // Subjects may sit a little beyond the sales' extent: the widest box is taken one radius further from the equator.
  const lonRad = lonHalfWidth(radiusMi, maxAbsLat * DEG_TO_RAD + ang);
  return { lat0: lat0 - 1, lon0: lon0 - 1, cellLat: (ang / DEG_TO_RAD) * 1.01, cellLon: (lonRad / DEG_TO_RAD) * 1.01 };
}

const cellOf = (g: Grid, lat: number, lon: number): [number, number] => [Math.floor((lon - g.lon0) / g.cellLon), Math.floor((lat - g.lat0) / g.cellLat)];

/** Per-query constants of a subject at one step: the kernel's radius bound, window and a degree box containing the
 * circle (the peers' index prefilter; the chord test decides). */
export type Probe = { u: Unit; hMax: number; dayLo: number; box: { lat0: number; lat1: number; lon0: number; lon1: number } };

export function probeOf(s: Subject, radiusMi: number, windowDays: number): Probe {
  const latBox = (radiusMi / EARTH_RADIUS_MI) * (1 + BOX_SLACK) / DEG_TO_RAD;
  const lonBox = (lonHalfWidth(radiusMi, s.lat * DEG_TO_RAD) * (1 + BOX_SLACK)) / DEG_TO_RAD;
  // 0.1% wider than the kernel's box: the prefilter may only ever keep more rows than the kernel's cells do.
  const [dLat, dLon] = [latBox * 1.001, lonBox * 1.001];
  return {
    u: unitVector(s.lat, s.lon), hMax: havOfMi(radiusMi), dayLo: Math.ceil(s.asOfDay - windowDays),
    box: { lat0: s.lat - dLat, lat1: s.lat + dLat, lon0: s.lon - dLon, lon1: s.lon + dLon },
  };
}

const num = (x: number): string => (Number.isFinite(x) ? String(x) : '');

async function writeLines(file: string, n: number, line: (i: number) => string | null): Promise<void> {
  const out = createWriteStream(file);
  let buf = '';
  for (let i = 0; i < n; i++) {
    const l = line(i);
    if (l !== null) buf += l;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'finish');
}

export const SALES_COLUMNS = 'row_id, parcel_idx, county, ptype, cond_bit, sale_day, sale_month, price, sqft, beds, deed_class, num_parcels, lat, lon, ux, uy, uz, cell_x, cell_y';

/** Every sales row (the arms-length screen reads rows without coordinates too); NULL (empty) for unknown values. */
export async function writeSalesCsv(file: string, c: KernelColumns, g: Grid): Promise<void> {
  const deed = deedClassTable();
  await writeLines(file, c.lat.length, (i) => {
    const geo = indexable(c.lat[i], c.lon[i]);
    const u = geo ? unitVector(c.lat[i], c.lon[i]) : [NaN, NaN, NaN];
    const [cx, cy] = geo ? cellOf(g, c.lat[i], c.lon[i]) : [NaN, NaN];
    const sqft = c.sqft[i] > 0 && Number.isFinite(c.sqft[i]) ? c.sqft[i] : NaN;
    const beds = c.beds[i] >= 0 ? c.beds[i] : NaN;
    const cols = [i, c.parcelIdx[i], c.county[i], c.ptype[i], conditionBit(c.condition[i]), c.saleDay[i], monthNumber(c.saleDay[i]), num(c.priceUsd[i]),
      num(sqft), num(beds), deed[c.deedType[i]], c.numParcels[i], geo ? c.lat[i] : '', geo ? c.lon[i] : '', num(u[0]), num(u[1]), num(u[2]), num(cx), num(cy)];
    return `${cols.join(',')}\n`;
  });
}

export const SUBJECT_COLUMNS = 'sid, lat, lon, ux, uy, uz, cell_x, cell_y, ptype, county, mask, as_of, as_of_month, day_lo, excl, sqft, beds';

/** Subjects of one step (sid = position in `subjects`); excl = -1 when the subject has no parcel. */
export async function writeSubjectsCsv(file: string, subjects: readonly Subject[], g: Grid, radiusMi: number, windowDays: number): Promise<void> {
  await writeLines(file, subjects.length, (i) => {
    const s = subjects[i];
    const pr = probeOf(s, radiusMi, windowDays);
    const [cx, cy] = cellOf(g, s.lat, s.lon);
    const cols = [i, s.lat, s.lon, ...pr.u, cx, cy, s.ptype, s.county, s.stratumMask, s.asOfDay, monthNumber(s.asOfDay), pr.dayLo, s.excludeParcelIdx ?? -1,
      s.sqft ?? '', s.beds ?? ''];
    return `${cols.join(',')}\n`;
  });
}

/** The kernel's level lookup (last series month <= m, the first level before the series) for every month from
 * `fromMonth` to `toMonth`, per county with a series; a county without one has no rows (factor 1). */
export async function writeLevelsCsv(file: string, series: readonly TimeIndexSeries[], fromMonth: number, toMonth: number): Promise<void> {
  const rows: string[] = [];
  for (const s of series) {
    let k = 0;
    for (let m = fromMonth; m <= toMonth; m++) {
      while (k + 1 < s.months.length && s.months[k + 1] <= m) k++;
      const level = s.levels[s.months[k] <= m ? k : 0];
      rows.push(`${s.county},${m},${level},${Math.log(level)}\n`);
    }
  }
  await writeLines(file, rows.length, (i) => rows[i]);
}

/** Month range the levels table must cover: every sale month and every as-of month. */
export function monthSpan(c: KernelColumns, subjects: readonly Subject[]): [number, number] {
  let [lo, hi] = [Infinity, -Infinity];
  for (let i = 0; i < c.saleDay.length; i++) {
    const m = monthNumber(c.saleDay[i]);
    if (m < lo) lo = m;
    if (m > hi) hi = m;
  }
  for (const s of subjects) hi = Math.max(hi, monthNumber(s.asOfDay));
  return [lo, hi];
}

/** The numbers the SQL takes from the comp policy (the same params object the kernel gets). */
export const policyOf = (p: KernelParams) => ({
  radiusMi: p.ladderRadiusMi[0], windowDays: p.ladderWindowDays[0], glaBand: p.glaBandFrac, bedsBand: p.bedsBand, madTrimK: p.madTrimK,
  madScale: p.madScale, maxComps: p.maxComps, lnMaxAnnual: Math.log(1 + p.timeIndexMaxAnnual), clampLo: p.timeIndexClamp[0],
  clampHi: p.timeIndexClamp[1], capFrac: p.glaAdjCapFrac, marginalFrac: p.glaMarginalFrac, priceFloor: p.priceFloorUsd,
  dupDays: p.duplicateWindowDays, rapidDays: p.rapidResaleDays, w: p.similarityWeights,
});
export type Policy = ReturnType<typeof policyOf>;
