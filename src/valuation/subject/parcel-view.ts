// Typed view of a snapshot's parcel table (store/columns.ts PARCEL_COLUMNS) for subject resolution: PIN and
// normalized-address lookups and a coarse lat/lon grid for "the parcel at this point". Maps are built lazily, once.
import type { Table } from 'apache-arrow';
import { AppError } from '../../errors/app-error.js';
import { haversineMi, MI_PER_DEG_LAT } from '../../reference/geo.js';
import { TIER1 } from '../../registry/groups/tier1.js';
import { PARCEL_COLUMNS as P } from '../../store/columns.js';
import { buildPointGrid, cellIndex, cellKeyOf, gridCellKey, type PointGrid } from '../point-grid.js';

export type ParcelView = {
  length: number;
  pin(i: number): string;
  address(i: number): string | null;
  zip(i: number): string | null;
  lat: Float64Array; lon: Float64Array; county: Uint8Array; ptype: Uint8Array; units: Uint8Array; sqft: Float64Array;
  beds: Int8Array; yearBuilt: Int16Array; condition: Uint8Array; tractIdx: Uint16Array;
  rowOfPin(pin: string): number | null;
  /** `normalized` is normalizeAddress(...) of subject.ts. */
  rowOfAddress(normalized: string): number | null;
  /** Rows in the grid cell of (lat, lon) and its 8 neighbours. */
  near(lat: number, lon: number): number[];
  /** The point grid near() reads (cell keys: cellKeyAt), built on first use. */
  grid(): PointGrid;
};

/** Relative margin of the latitude screen in findParcelNear: floating-point error is ~1e-15, so this never skips a taker. */
const LAT_SCREEN_SLACK = 1e-9;

/** Grid cell side in degrees: ~0.07 mi of latitude, several times the subject match radius. */
const CELL_DEG = 0.001;
/** Grid key (point-grid.ts cellKeyOf) of the cell holding (lat, lon); NaN for a non-finite coordinate. */
export const cellKeyAt = (lat: number, lon: number): number => cellKeyOf(lat, lon, CELL_DEG);

/**
 * Cell of the grid `dy`, `dx` cells (-1..1) from that of (lat, lon), or -1 when no parcel lies in it. By index, not by
 * moving the point a cell: (lon − 0.001) / 0.001 can round past the next column boundary and skip a column.
 */
function neighbourCell(g: PointGrid, lat: number, lon: number, dy: number, dx: number): number {
  return cellIndex(g, gridCellKey(Math.floor(lat / CELL_DEG) + dy, Math.floor(lon / CELL_DEG) + dx));
}

function arr<T>(table: Table, name: string): T {
  const c = table.getChild(name);
  if (!c) throw new AppError('ingest_invalid_file', `parcel table has no column ${name}`);
  return c.toArray() as T;
}

/** The parcel view; `normalize` is the address normalizer (passed in to keep one definition, in subject.ts). */
export function parcelViewFromArrow(table: Table, normalize: (a: string) => string): ParcelView {
  const pinCol = table.getChild(P.pin);
  const addrCol = table.getChild(P.address);
  const zipCol = table.getChild(P.zip);
  if (!pinCol) throw new AppError('ingest_invalid_file', 'parcel table has no pin column');
  const lat = arr<Float64Array>(table, P.lat);
  const lon = arr<Float64Array>(table, P.lon);
  const n = table.numRows;
  let byPin: Map<string, number> | null = null;
  let byAddress: Map<string, number> | null = null;
  let grid: PointGrid | null = null;
  const address = (i: number): string | null => {
    const v = addrCol?.get(i);
    return v == null || v === '' ? null : String(v);
  };
  return {
    length: n,
    pin: (i) => String(pinCol.get(i)),
    address,
    zip: (i) => {
      const z = zipCol?.get(i);
      return z == null || z === '' ? null : String(z);
    },
    lat, lon,
    county: arr(table, P.county), ptype: arr(table, P.ptype), units: arr(table, P.units), sqft: arr(table, P.sqft),
    beds: arr(table, P.beds), yearBuilt: arr(table, P.yearBuilt), condition: arr(table, P.condition), tractIdx: arr(table, P.tractIdx),
    rowOfPin(pin) {
      byPin ??= new Map(Array.from({ length: n }, (_, i) => [String(pinCol.get(i)), i] as [string, number]));
      return byPin.get(pin) ?? null;
    },
    rowOfAddress(normalized) {
      if (!byAddress) {
        byAddress = new Map();
        for (let i = 0; i < n; i++) {
          const a = address(i);
          if (a !== null && !byAddress.has(normalize(a))) byAddress.set(normalize(a), i);
        }
      }
      return byAddress.get(normalized) ?? null;
    },
    near(qLat, qLon) {
      const g = this.grid();
      const out: number[] = [];
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const c = neighbourCell(g, qLat, qLon, dy, dx);
          if (c >= 0) for (let k = g.offsets[c]; k < g.offsets[c + 1]; k++) out.push(g.rows[k]);
        }
      }
      return out;
    },
    grid() {
      grid ??= buildPointGrid(n, (i) => cellKeyAt(lat[i], lon[i]));
      return grid;
    },
  };
}

/** The nearest parcel within subject_match_radius_mi of (lat, lon), or null (then the subject's fields stay null). */
export function findParcelNear(p: ParcelView, lat: number, lon: number): number | null {
  let best: number | null = null;
  let bestMi: number = TIER1.v.subject_match_radius_mi;
  // The grid's cells read in place (near() order), not concatenated into a new array per subject.
  const g = p.grid();
  // The subject's own cell first, for a bound: the nearest parcel is usually there (its own lot, ~0 mi away), and
  // with that bound the screen below skips nearly every row of the other cells. The answer is still the near()-order
  // scan's (the last row at the least distance): a row the bound skips is farther than the least distance.
  const own = neighbourCell(g, lat, lon, 0, 0);
  // haversineMi is 0 only between equal coordinates, and parcels at the subject's very point lie in its own cell: the
  // scan's answer is then the last of them in row order (bulk scoring, listings and the bench value parcels there).
  const atPoint = lastAtPoint(p, own, lat, lon);
  if (atPoint !== null) return atPoint;
  const screenMi = Math.min(bestMi, nearestIn(p, own, lat, lon));
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      const c = neighbourCell(g, lat, lon, dy, dx);
      if (c < 0) continue;
      for (let k = g.offsets[c]; k < g.offsets[c + 1]; k++) {
        const i = g.rows[k];
        // haversine ≥ the latitude arc (its cos·cos·sin² term is ≥ 0): a row whose latitude alone is farther than the
        // best so far (with a margin far above rounding) cannot be taken, so its distance is not computed.
        if (Math.abs(p.lat[i] - lat) * MI_PER_DEG_LAT > Math.min(bestMi, screenMi) * (1 + LAT_SCREEN_SLACK)) continue;
        const d = haversineMi(lat, lon, p.lat[i], p.lon[i]);
        if (d <= bestMi) {
          bestMi = d;
          best = i;
        }
      }
    }
  }
  return best;
}

/** The last parcel of grid cell c (row order) at exactly (lat, lon), or null. */
function lastAtPoint(p: ParcelView, c: number, lat: number, lon: number): number | null {
  if (c < 0) return null;
  const g = p.grid();
  let last: number | null = null;
  for (let k = g.offsets[c]; k < g.offsets[c + 1]; k++) if (p.lat[g.rows[k]] === lat && p.lon[g.rows[k]] === lon) last = g.rows[k];
  return last;
}

/** The least haversineMi from (lat, lon) to a parcel of grid cell c (Infinity for an empty or absent cell). */
function nearestIn(p: ParcelView, c: number, lat: number, lon: number): number {
  if (c < 0) return Infinity;
  const g = p.grid();
  let least = Infinity;
  for (let k = g.offsets[c]; k < g.offsets[c + 1]; k++) {
    const i = g.rows[k];
    // the same latitude screen as findParcelNear's: a row it skips is farther than `least`
    if (Math.abs(p.lat[i] - lat) * MI_PER_DEG_LAT > least * (1 + LAT_SCREEN_SLACK)) continue;
    least = Math.min(least, haversineMi(lat, lon, p.lat[i], p.lon[i]));
  }
  return least;
}
