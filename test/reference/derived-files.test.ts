// Checks the committed files in data/reference: counts, exact property sets, closed valid rings, sizes.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE_DIR } from '../../src/config.js';
import { parseCsv } from '../../src/reference/csv.js';
import { REFERENCE_FILES } from '../../src/reference/derive/index.js';
import { isValidIntPolygon, toIntRing } from '../../src/reference/derive/simplify.js';
import type { FeatureCollection } from '../../src/reference/types.js';

const read = (name: string) => readFileSync(join(REFERENCE_DIR, name), 'utf8');

function checkRings(fc: FeatureCollection<Record<string, string>>): string[] {
  const problems: string[] = [];
  for (const f of fc.features) {
    expect(f.geometry.type).toBe('MultiPolygon');
    for (const poly of f.geometry.coordinates) {
      for (const ring of poly) {
        const [a, z] = [ring[0], ring[ring.length - 1]];
        if (ring.length < 4 || a[0] !== z[0] || a[1] !== z[1]) problems.push(`${JSON.stringify(f.properties)} ring open or short`);
        if (ring.some(([x, y]) => Math.round(x * 1e5) / 1e5 !== x || Math.round(y * 1e5) / 1e5 !== y)) problems.push('coordinate not on 5 decimals');
      }
      // exact validity on the 1e-5 integer grid: no self-touching rings, no crossing rings
      if (!isValidIntPolygon(poly.map((r) => toIntRing(r.slice(0, -1), 5)))) problems.push(`${JSON.stringify(f.properties)} invalid polygon`);
    }
  }
  return problems;
}

describe('data/reference', () => {
  it('holds every derived file, well under 3 MB in total', () => {
    const names = readdirSync(REFERENCE_DIR);
    for (const f of REFERENCE_FILES) expect(names).toContain(f);
    const total = REFERENCE_FILES.reduce((s, f) => s + statSync(join(REFERENCE_DIR, f)).size, 0);
    expect(total).toBeLessThan(1_500_000);
  });

  it('neighborhoods.geojson: 860 features, exact properties, closed valid rings', () => {
    const fc = JSON.parse(read('neighborhoods.geojson')) as FeatureCollection<Record<string, string>>;
    expect(fc.features).toHaveLength(860);
    for (const f of fc.features) expect(Object.keys(f.properties)).toEqual(['town_nbhd', 'township_code', 'township_name', 'triad_code', 'triad_name']);
    expect(new Set(fc.features.map((f) => f.properties.town_nbhd)).size).toBe(860);
    expect(checkRings(fc)).toEqual([]);
  });

  it('townships.geojson: 38 features, exact properties, closed valid rings', () => {
    const fc = JSON.parse(read('townships.geojson')) as FeatureCollection<Record<string, string>>;
    expect(fc.features).toHaveLength(38);
    for (const f of fc.features) expect(Object.keys(f.properties)).toEqual(['township_code', 'township_name', 'triad_code']);
    expect(checkRings(fc)).toEqual([]);
  });

  it('zip_centroids.csv: Cook 174 rows, Lake 34 rows, 4 ZIPs in both', () => {
    const rows = parseCsv(read('zip_centroids.csv'));
    expect(rows.filter((r) => r.county === 'cook')).toHaveLength(174);
    expect(rows.filter((r) => r.county === 'lake')).toHaveLength(34);
    expect(rows.length - new Set(rows.map((r) => r.zip)).size).toBe(4);
  });

  it('muni_tax_rates.csv: 134 municipalities, years 2006-2023, rates as fractions', () => {
    const rows = parseCsv(read('muni_tax_rates.csv'));
    expect(new Set(rows.map((r) => r.municipality)).size).toBe(134);
    const years = rows.map((r) => Number(r.year));
    expect([Math.min(...years), Math.max(...years)]).toEqual([2006, 2023]);
    for (const r of rows) {
      for (const k of ['current_rate_avg', 'effective_rate', 'min_tc_rate', 'max_tc_rate']) expect(Number(r[k])).toBeLessThan(1);
    }
  });

  it('every CSV parses with its documented header', () => {
    expect(Object.keys(parseCsv(read('equalization_factors.csv'))[0])).toEqual(['year', 'eq_factor_tentative', 'eq_factor_final']);
    expect(Object.keys(parseCsv(read('levels_of_assessment.csv'))[0])).toEqual(['year', 'class_code', 'loa']);
    expect(Object.keys(parseCsv(read('class_codes.csv'))[0])).toEqual(['class_code', 'major_class_type', 'modeling_group', 'class_desc', 'min_age', 'max_age', 'min_size', 'max_size', 'units_min', 'units_max']);
    expect(Object.keys(parseCsv(read('deed_types.csv'))[0])).toEqual(['code', 'name', 'arms_length']);
    expect(Object.keys(parseCsv(read('cook_county_level.csv'))[0])).toEqual(['year', 'current_rate_avg', 'effective_rate', 'avg_c2_bill_noexe', 'avg_c2_bill_withexe']);
    expect(Object.keys(parseCsv(read('pin_area_townships.csv'))[0])).toEqual(['pin_area', 'township_code', 'township_name', 'lat', 'lon', 'method']);
    expect(parseCsv(read('equalization_factors.csv'))).toHaveLength(44);
  });

  it('neighborhood_groups.csv: 573 neighborhoods in 69 groups, source spellings kept, every code a polygon', () => {
    const rows = parseCsv(read('neighborhood_groups.csv'));
    expect(Object.keys(rows[0])).toEqual(['town_nbhd', 'group_name']);
    expect(rows).toHaveLength(573);
    expect(new Set(rows.map((r) => r.town_nbhd)).size).toBe(573);
    expect(new Set(rows.map((r) => r.group_name)).size).toBe(69);
    const groups = new Set(rows.map((r) => r.group_name));
    for (const g of ['berywn', 'oak_park', 'Lake View 1', 'Hyde Park 2', 'br_th']) expect(groups).toContain(g);
    const fc = JSON.parse(read('neighborhoods.geojson')) as FeatureCollection<Record<string, string>>;
    const codes = new Set(fc.features.map((f) => f.properties.town_nbhd));
    expect(rows.filter((r) => !codes.has(r.town_nbhd))).toEqual([]);
  });

  it('price_levels.json covers the 346,164 sales, 2015-2019, and every PIN area 01-33', () => {
    const p = JSON.parse(read('price_levels.json'));
    expect(p.n_sales).toBe(346164);
    expect(p.years).toEqual([2015, 2016, 2017, 2018, 2019]);
    // the raw SOURCES.md gives per-year counts; the county 'all' groups must add up to them
    expect([2015, 2016, 2017, 2018, 2019].map((y) => p.county[y].all.n)).toEqual([59159, 71312, 74324, 72895, 68474]);
    expect(Object.keys(p.by_area).sort()).toEqual(Array.from({ length: 33 }, (_, i) => String(i + 1).padStart(2, '0')));
  });
});
