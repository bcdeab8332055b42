// Comp density of a generated corpus, as the valuation backtest will meet it: for recent renovated Cook sales, how
// many renovated arms-length comps of the same type (GLA +-20%, beds +-1) sold before them within 0.5 mi / 180 d and
// 1.0 mi / 365 d, and how close a plain median-of-comps estimate gets next to the oracle (the true value).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsv } from '../src/reference/csv.js';

type Sale = { lat: number; lon: number; day: number; priceUsd: number; trueUsd: number; sqft: number; beds: number; ptype: string; chicago: boolean };
const MI_PER_DEG_LAT = 69.09;
const CELL_DEG = 0.015; // grid cell about 1 mi tall: a 1-mile search looks at the 3 x 3 block around the subject
/** Plain estimate for the check only: 5%/yr drift and the generator's sqft elasticity; the engine uses its own. */
const DRIFT_PER_YEAR = 0.05, SQFT_ELASTICITY = 0.55;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

function loadRenovatedSales(outDir: string): Sale[] {
  const rd = (f: string) => parseCsv(readFileSync(join(outDir, f), 'utf8'));
  const uni = new Map(rd('raw/ccao_parcel_universe.csv').map((r) => [r.pin, r]));
  const chars = new Map(rd('raw/ccao_res_characteristics.csv').map((r) => [r.pin, r]));
  return rd('truth/sales_truth.csv')
    .filter((r) => r.county === 'cook' && r.is_arms_length === '1' && r.property_type !== 'condo' && (r.condition === 'renovated' || r.condition === 'new'))
    .map((r) => {
      const u = uni.get(r.pin) as Record<string, string>, c = chars.get(r.pin) as Record<string, string>;
      return {
        lat: Number(u.lat), lon: Number(u.lon), day: Date.parse(`${r.sale_date}T00:00:00Z`) / 86_400_000, priceUsd: Number(r.sale_price),
        trueUsd: Number(r.true_value), sqft: Number(c.char_bldg_sf), beds: Number(c.char_beds), ptype: r.property_type, chicago: u.tax_municipality_name === 'Chicago',
      };
    });
}

function compsOf(s: Sale, grid: Map<string, Sale[]>, radiusMi: number, windowDays: number): Sale[] {
  const out: Sale[] = [];
  const [gy, gx] = [Math.floor(s.lat / CELL_DEG), Math.floor(s.lon / CELL_DEG)];
  const cosLat = Math.cos((s.lat * Math.PI) / 180);
  for (let a = gy - 1; a <= gy + 1; a++) {
    for (let b = gx - 2; b <= gx + 2; b++) {
      for (const c of grid.get(`${a},${b}`) ?? []) {
        if (c === s || c.day >= s.day || c.day < s.day - windowDays || c.ptype !== s.ptype) continue;
        if (Math.abs(c.sqft / s.sqft - 1) > 0.2 || Math.abs(c.beds - s.beds) > 1) continue;
        if (Math.hypot((c.lat - s.lat) * MI_PER_DEG_LAT, (c.lon - s.lon) * MI_PER_DEG_LAT * cosLat) <= radiusMi) out.push(c);
      }
    }
  }
  return out;
}

/** Density and a plain comp check over the renovated sales of the last year before `asOfDay` (every `stride`-th). */
export function compDensity(outDir: string, asOfDay: number, stride = 5): Record<string, number> {
  const sales = loadRenovatedSales(outDir);
  const grid = new Map<string, Sale[]>();
  for (const s of sales) {
    const k = `${Math.floor(s.lat / CELL_DEG)},${Math.floor(s.lon / CELL_DEG)}`;
    grid.set(k, [...(grid.get(k) ?? []), s]);
  }
  const subjects = sales.filter((s) => s.day > asOfDay - 365).filter((_, i) => i % stride === 0);
  const near: number[] = [], wide: number[] = [], nearChicago: number[] = [], wideChicago: number[] = [], err: number[] = [], oracle: number[] = [];
  for (const s of subjects) {
    const step1 = compsOf(s, grid, 0.5, 180), step3 = compsOf(s, grid, 1.0, 365);
    near.push(step1.length); wide.push(step3.length);
    if (s.chicago) { nearChicago.push(step1.length); wideChicago.push(step3.length); }
    const comps = step1.length >= 5 ? step1 : step3;
    if (comps.length < 3) continue;
    const est = median(comps.map((c) => c.priceUsd * Math.exp((DRIFT_PER_YEAR * (s.day - c.day)) / 365) * (s.sqft / c.sqft) ** SQFT_ELASTICITY));
    err.push(Math.abs(est / s.priceUsd - 1));
    oracle.push(Math.abs(s.trueUsd / s.priceUsd - 1));
  }
  return {
    subjects: subjects.length,
    median_comps_05mi_180d: median(near), median_comps_1mi_365d: median(wide),
    chicago_median_comps_05mi_180d: median(nearChicago), chicago_median_comps_1mi_365d: median(wideChicago),
    share_ge5_within_1mi_365d: wide.filter((n) => n >= 5).length / wide.length,
    plain_comp_mdape: median(err), oracle_mdape: median(oracle), ratio: median(err) / median(oracle),
  };
}
