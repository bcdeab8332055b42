// The parcel view's point grid: findParcelNear reads the grid cells in place and picks the same parcel as a scan of
// near()'s rows (ties to the later row, as before), on a dense seeded cloud of parcels around Chicago.
import { tableFromArrays } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/ingest/generate/rng.js';
import { haversineMi } from '../../../src/reference/geo.js';
import { TIER1 } from '../../../src/registry/groups/tier1.js';
import { gridCellKey } from '../../../src/valuation/point-grid.js';
import { cellKeyAt, findParcelNear, parcelViewFromArrow, type ParcelView } from '../../../src/valuation/subject/parcel-view.js';
import { normalizeAddress } from '../../../src/valuation/subject/subject.js';

function cloud(n: number, rng: Rng): ParcelView {
  const lat = Float64Array.from({ length: n }, () => rng.uniform(41.88, 41.9));
  const lon = Float64Array.from({ length: n }, () => rng.uniform(-87.66, -87.64));
  // a few exact duplicates: ties between parcels at the same point
  for (let i = 0; i < n; i += 97) if (i + 1 < n) { lat[i + 1] = lat[i]; lon[i + 1] = lon[i]; }
  return viewOf(lat, lon);
}

function viewOf(lat: Float64Array, lon: Float64Array): ParcelView {
  const n = lat.length;
  const z = (T: typeof Uint8Array) => new T(n);
  return parcelViewFromArrow(
    tableFromArrays({
      pin: Array.from({ length: n }, (_, i) => String(17_000_000_000_000 + i)), county: z(Uint8Array), lat, lon,
      zip: Array.from({ length: n }, () => '60622'), tract_idx: new Uint16Array(n), class: Array.from({ length: n }, () => '211'), ptype: z(Uint8Array),
      units: z(Uint8Array), sqft: new Float64Array(n), beds: new Int8Array(n), year_built: new Int16Array(n), condition: z(Uint8Array),
      address: Array.from({ length: n }, (_, i) => `${i} N Western Ave`),
    }),
    normalizeAddress,
  );
}

/** The former findParcelNear: a scan of the concatenated near() rows. */
function viaNear(p: ParcelView, lat: number, lon: number): number | null {
  let best: number | null = null;
  let bestMi: number = TIER1.v.subject_match_radius_mi;
  for (const i of p.near(lat, lon)) {
    const d = haversineMi(lat, lon, p.lat[i], p.lon[i]);
    if (d <= bestMi) {
      bestMi = d;
      best = i;
    }
  }
  return best;
}

describe('parcel view grid', () => {
  it('finds a parcel in the next column from a point on a cell boundary', () => {
    // -88.26 / 0.001 = -88260 exactly (column -88260), the parcel at -88.26005 is in column -88261, 0.0026 mi away.
    // Moving the point a cell instead of the column index, (-88.26 − 0.001) / 0.001 = -88261.00000000001 floors to
    // column -88262 and the parcel's column would never be read.
    const p = viewOf(Float64Array.of(42.05379), Float64Array.of(-88.26005));
    expect(findParcelNear(p, 42.05379, -88.26)).toBe(0);
  });

  it('findParcelNear picks the row a scan of near() picks, at 2,000 seeded points and at parcels themselves', () => {
    const rng = new Rng(20261121, 'parcel-view');
    const p = cloud(20_000, rng);
    let found = 0;
    for (let k = 0; k < 2000; k++) {
      const [lat, lon] = k % 2 === 0 ? [rng.uniform(41.879, 41.901), rng.uniform(-87.661, -87.639)] : [p.lat[k * 7], p.lon[k * 7]];
      const got = findParcelNear(p, lat, lon);
      expect(got).toBe(viaNear(p, lat, lon));
      if (got !== null) found++;
    }
    expect(found).toBeGreaterThan(1000);
  });

  it('near() lists the nine cells around the point, each cell in row order, and every row in its own cell', () => {
    const p = cloud(5000, new Rng(7, 'parcel-view-cells'));
    const lat = p.lat[10], lon = p.lon[10];
    const CELL = 0.001;
    const want: number[] = [];
    for (const dy of [-1, 0, 1]) {
      for (const dx of [-1, 0, 1]) {
        const key = gridCellKey(Math.floor(lat / CELL) + dy, Math.floor(lon / CELL) + dx);
        for (let i = 0; i < p.length; i++) if (cellKeyAt(p.lat[i], p.lon[i]) === key) want.push(i);
      }
    }
    expect(p.near(lat, lon)).toEqual(want);
    expect(want).toContain(10);
    const g = p.grid();
    expect(g.rows.length).toBe(p.length);
    expect(Array.from(g.keys)).toEqual([...new Set(Array.from(p.lat, (_, i) => cellKeyAt(p.lat[i], p.lon[i])))].sort((a, b) => a - b));
  });
});
