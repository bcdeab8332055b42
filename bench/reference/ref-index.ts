// Reference arms-length screens and grid index (same definitions as crates/avm-kernel/src/index.rs): rows permuted
// by (cell, ptype, condition, sale_day, row); the kernel adds a per-cell bucket directory, the reference binary-searches
// the composite key instead (same rows). `bruteForce` marks an index that queries scan row by row (the grid's oracle).
import type { KernelParams } from '../../src/kernel/params.js';
import type { KernelColumns } from '../../src/kernel/types.js';
import { DEG_TO_RAD, EARTH_RADIUS_MI, lonHalfWidth, type LevelOf } from './ref-math.js';

export const R = { gla: 0, beds: 1, mad: 2, rapid: 3, price: 4, multi: 5, nonArms: 6, quitclaim: 7, duplicate: 8, none: 255 } as const;
const MAX_CELLS = 1 << 22;

export type RefIndex = {
  latRad: Float64Array; lonRad: Float64Array; cosLat: Float64Array; ux: Float64Array; uy: Float64Array; uz: Float64Array;
  level: Float64Array; lnLevel: Float64Array; saleDay: Int32Array; priceUsd: Float64Array;
  sqft: Float64Array; beds: Int8Array; ptype: Uint8Array; county: Uint8Array; condition: Uint8Array;
  parcelIdx: Uint32Array; screen: Uint8Array; row: Uint32Array; key: Float64Array; bruteForce: boolean;
  lat0: number; lon0: number; cellLat: number; cellLon: number; nx: number; ny: number; cellStart: Uint32Array;
};

/** One arms-length reason per row (precedence documented in index.rs). */
export function screenRows(c: KernelColumns, p: KernelParams, deedClass: Uint8Array): Uint8Array {
  const n = c.lat.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => c.parcelIdx[a] - c.parcelIdx[b] || c.saleDay[a] - c.saleDay[b] || a - b);
  const repeat = new Uint8Array(n).fill(R.none);
  const maxGap = Math.max(p.duplicateWindowDays, p.rapidResaleDays);
  order.forEach((r, k) => {
    for (let j = k - 1; j >= 0; j--) {
      const e = order[j];
      const gap = c.saleDay[r] - c.saleDay[e];
      if (c.parcelIdx[e] !== c.parcelIdx[r] || gap > maxGap) break;
      if (c.priceUsd[e] === c.priceUsd[r] && gap <= p.duplicateWindowDays) {
        repeat[r] = R.duplicate;
        break;
      }
      if (gap <= p.rapidResaleDays) repeat[r] = R.rapid;
    }
  });
  return repeat.map((rep, r) => {
    if (!(c.priceUsd[r] >= p.priceFloorUsd)) return R.price;
    if (c.numParcels[r] > 1) return R.multi;
    if (deedClass[c.deedType[r]] === 1) return R.quitclaim;
    if (deedClass[c.deedType[r]] === 2) return R.nonArms;
    return rep;
  });
}

const indexable = (lat: number, lon: number): boolean => Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 85 && Math.abs(lon) <= 180;
/** Within-cell sort key ptype·2^40 + condition·2^32 + (sale_day + 2^31), exact in doubles (as index.rs sort_key). */
export const sortKey = (ptype: number, condition: number, saleDay: number): number => ptype * 2 ** 40 + condition * 2 ** 32 + Math.min(Math.max(saleDay + 2 ** 31, 0), 2 ** 32 - 1);
const cellOf = (v: number, origin: number, size: number): number => Math.floor((v - origin) / size);

function sizeGrid(c: KernelColumns, rows: number[], p: KernelParams, bruteForce: boolean) {
  let [latLo, latHi, lonLo, lonHi] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const r of rows) {
    const [la, lo] = [c.lat[r] * DEG_TO_RAD, c.lon[r] * DEG_TO_RAD];
    [latLo, latHi, lonLo, lonHi] = [Math.min(latLo, la), Math.max(latHi, la), Math.min(lonLo, lo), Math.max(lonHi, lo)];
  }
  if (bruteForce) return { lat0: latLo, lon0: lonLo, cellLat: Infinity, cellLon: Infinity, nx: 1, ny: 1 };
  const cellLat = p.gridCellMi / EARTH_RADIUS_MI;
  const cellLon = lonHalfWidth(p.gridCellMi, Math.max(Math.abs(latLo), Math.abs(latHi)));
  const ny = cellOf(latHi, latLo, cellLat) + 1;
  const nx = cellOf(lonHi, lonLo, cellLon) + 1;
  if (nx * ny > MAX_CELLS) throw new Error('grid too large');
  return { lat0: latLo, lon0: lonLo, cellLat, cellLon, nx, ny };
}

export function buildRefIndex(c: KernelColumns, p: KernelParams, deedClass: Uint8Array, levelOf: LevelOf, bruteForce = false): RefIndex {
  const screen = screenRows(c, p, deedClass);
  const rows: number[] = [];
  for (let r = 0; r < c.lat.length; r++) if (indexable(c.lat[r], c.lon[r])) rows.push(r);
  const g = rows.length ? sizeGrid(c, rows, p, bruteForce) : { lat0: 0, lon0: 0, cellLat: 1, cellLon: 1, nx: 0, ny: 0 };
  const clampTo = (v: number, n: number): number => Math.min(Math.max(v, 0), n - 1);
  const cell = (r: number): number => bruteForce ? 0 : clampTo(cellOf(c.lat[r] * DEG_TO_RAD, g.lat0, g.cellLat), g.ny) * g.nx + clampTo(cellOf(c.lon[r] * DEG_TO_RAD, g.lon0, g.cellLon), g.nx);
  const keyed = rows.map((r) => [cell(r), sortKey(c.ptype[r], c.condition[r], c.saleDay[r]), r] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  const cellStart = new Uint32Array(g.nx * g.ny + 1);
  for (const [cl] of keyed) cellStart[cl + 1]++;
  for (let k = 1; k < cellStart.length; k++) cellStart[k] += cellStart[k - 1];
  const n = keyed.length;
  const ix: RefIndex = {
    latRad: new Float64Array(n), lonRad: new Float64Array(n), cosLat: new Float64Array(n), ux: new Float64Array(n), uy: new Float64Array(n),
    uz: new Float64Array(n), level: new Float64Array(n), lnLevel: new Float64Array(n), saleDay: new Int32Array(n),
    priceUsd: new Float64Array(n), sqft: new Float64Array(n), beds: new Int8Array(n), ptype: new Uint8Array(n),
    county: new Uint8Array(n), condition: new Uint8Array(n), parcelIdx: new Uint32Array(n), screen: new Uint8Array(n),
    row: new Uint32Array(n), key: new Float64Array(n), bruteForce, ...g, cellStart,
  };
  keyed.forEach(([, key, r], i) => {
    ix.key[i] = key;
    const [lat, lon] = [c.lat[r] * DEG_TO_RAD, c.lon[r] * DEG_TO_RAD];
    [ix.latRad[i], ix.lonRad[i], ix.cosLat[i], ix.saleDay[i], ix.priceUsd[i]] = [lat, lon, Math.cos(lat), c.saleDay[r], c.priceUsd[r]];
    [ix.ux[i], ix.uy[i], ix.uz[i]] = [Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)];
    ix.level[i] = levelOf(c.county[r], c.saleDay[r]);
    ix.lnLevel[i] = Math.log(ix.level[i]);
    ix.sqft[i] = c.sqft[r] > 0 && Number.isFinite(c.sqft[r]) ? c.sqft[r] : NaN;
    [ix.beds[i], ix.ptype[i], ix.county[i], ix.condition[i]] = [c.beds[r], c.ptype[r], c.county[r], c.condition[r]];
    [ix.parcelIdx[i], ix.screen[i], ix.row[i]] = [c.parcelIdx[r], screen[r], r];
  });
  return ix;
}
