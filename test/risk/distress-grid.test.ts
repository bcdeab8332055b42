// The grid count of nearby (distressed) sales equals a plain scan of every sale, at the window's and the radius's edges
// and for points spread over cells, latitudes and longitudes of both signs.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/ingest/generate/rng.js';
import { haversineMi } from '../../src/reference/geo.js';
import { distressNear } from '../../src/risk/distress-grid.js';
import { CONDITION_CODE } from '../../src/store/columns.js';
import type { SalesColumns } from '../../src/store/sales-columns.js';
import { salesOf, type Sale } from '../valuation/area-context-sales.js';

/** The definition, row by row: what the grid must reproduce. */
function scanCount(s: SalesColumns, lat: number, lon: number, asOfDay: number, radiusMi: number, windowDays: number) {
  let n = 0, distressed = 0;
  for (let i = 0; i < s.length; i++) {
    if (s.saleDay[i] > asOfDay || s.saleDay[i] <= asOfDay - windowDays) continue;
    if (haversineMi(lat, lon, s.lat[i], s.lon[i]) > radiusMi) continue;
    n++;
    if (s.condition[i] === CONDITION_CODE.distressed) distressed++;
  }
  return { n, distressed };
}

describe('distressNear', () => {
  it('counts the window as (asOf − window, asOf] and the radius inclusively', () => {
    // 0.01° of latitude ≈ 0.69 mi on the 3958.8-mi sphere: the first three rows sit at the subject, the fourth beyond 0.5 mi
    const rows: Sale[] = [
      { parcel: 1, day: 1000, price: 1, cond: 'distressed', lat: 41.85, lon: -87.65 }, // on asOf: counted
      { parcel: 2, day: 270, price: 1, cond: 'distressed', lat: 41.85, lon: -87.65 }, // asOf − 730: excluded
      { parcel: 3, day: 271, price: 1, cond: 'dated', lat: 41.85, lon: -87.65 }, // just inside the window
      { parcel: 4, day: 900, price: 1, cond: 'distressed', lat: 41.86, lon: -87.65 }, // 0.69 mi away
      { parcel: 5, day: 1001, price: 1, cond: 'distressed', lat: 41.85, lon: -87.65 }, // after asOf
    ];
    expect(distressNear(salesOf(rows), 41.85, -87.65, 1000, 0.5, 730)).toEqual({ n: 2, distressed: 1 });
    expect(distressNear(salesOf(rows), 41.85, -87.65, 1000, 1.0, 730)).toEqual({ n: 3, distressed: 2 });
  });

  it('agrees with a scan of every sale for random points, days and radii', () => {
    const rng = new Rng(11, 'distress-grid');
    const conds = ['distressed', 'dated', 'renovated', 'new'] as const;
    const rows: Sale[] = Array.from({ length: 4000 }, (_, i) => ({
      parcel: i, day: rng.int(0, 2000), price: 1, cond: conds[rng.int(0, conds.length - 1)],
      lat: rng.uniform(41.6, 42.5), lon: rng.uniform(-88.3, -87.5),
    }));
    const s = salesOf(rows);
    for (let q = 0; q < 300; q++) {
      // half the queries on a sale's own location so that counts are rarely zero
      const at = rows[rng.int(0, rows.length - 1)];
      const lat = q % 2 ? at.lat! : rng.uniform(41.6, 42.5);
      const lon = q % 2 ? at.lon! : rng.uniform(-88.3, -87.5);
      const radius = [0.5, 1, 3][q % 3];
      const asOf = rng.int(0, 2000);
      expect(distressNear(s, lat, lon, asOf, radius, 730)).toEqual(scanCount(s, lat, lon, asOf, radius, 730));
    }
  });
});
