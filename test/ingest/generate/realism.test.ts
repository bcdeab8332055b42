// Generator 3.2.0 against the real files: neighborhood levels on the real medians, the within-area spread of the real
// sales, assessor flags at the real rates, the condition kept out of the export on request, and the realism report.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus, REALISM_FILE, type GenerateResult } from '../../../src/ingest/generate/generate.js';
import { CCAO_SALES, LAKE_GIS_SALES } from '../../../src/ingest/layouts.js';
import { GENERATOR } from '../../../src/registry/groups/generator.js';
import { digestTree, headerOf, readCsv } from './support.js';

let dir: string;
let gen: GenerateResult;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'avm-gen-realism-'));
  gen = await generateCorpus({ seed: 7, scale: 'test', outDir: dir, exportCondition: false });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pearson = (x: number[], y: number[]): number => {
  const mx = x.reduce((s, v) => s + v, 0) / x.length, my = y.reduce((s, v) => s + v, 0) / y.length;
  let sxy = 0, sxx = 0, syy = 0;
  x.forEach((v, k) => { sxy += (v - mx) * (y[k] - my); sxx += (v - mx) ** 2; syy += (y[k] - my) ** 2; });
  return sxy / Math.sqrt(sxx * syy);
};

describe('generator 3.2.0 realism', () => {
  it('writes truth/realism.json with the targets and a pass/fail per target', () => {
    const file = JSON.parse(readFileSync(join(dir, 'truth', REALISM_FILE), 'utf8'));
    expect(file.generator_version).toBe('3.2.0');
    expect(Object.keys(file.checks)).toEqual(['nbhd_median_gap', 'area_iqr', 'area_tail_share', 'area_ks']);
    for (const c of Object.values(file.checks) as Array<{ pass: unknown }>) expect(typeof c.pass).toBe('boolean');
    expect(file.pin_areas.rows.length).toBe(33);
  });

  it('anchors neighborhood medians on the real ones: unbiased, and ranked as the real ones (test scale: few sales each)', () => {
    const rows = gen.realism.neighborhoods.rows.filter((r) => r.syn_n >= 15 && r.median_gap_log !== null);
    expect(rows.length).toBeGreaterThan(50);
    const gaps = rows.map((r) => r.median_gap_log as number).sort((a, b) => a - b);
    expect(Math.abs(gaps[gaps.length >> 1])).toBeLessThan(0.05);
    expect(pearson(rows.map((r) => Math.log(r.real_median)), rows.map((r) => Math.log(r.syn_median as number)))).toBeGreaterThan(0.9);
  });

  it('anchors the realised median of every real neighborhood-year (>= 30 real sales) that has enough synthetic rows', () => {
    const rows = gen.realism.neighborhoods.rows.filter((r) => r.real_n >= 30 && r.syn_n >= GENERATOR.v.realised_anchor_min_rows);
    expect(rows.length).toBeGreaterThan(50);
    for (const r of rows) expect(Math.abs(r.median_gap_log as number), `${r.town_nbhd} ${r.year}`).toBeLessThanOrEqual(0.05);
    const shifts = gen.realism.neighborhoods.summary.realised_anchor;
    expect(shifts.nbhd_years).toBeGreaterThanOrEqual(rows.length);
    expect(shifts.median_abs_shift_log).toBeGreaterThan(0);
  });

  it('maps the quality of each area with enough sales so its dry-pass sales come nearer the real percentiles (KS never rises)', () => {
    const rows = gen.realism.pin_areas.rows;
    const fitted = rows.filter((r) => r.dry_ks_after_shape !== null);
    expect(fitted.length).toBeGreaterThanOrEqual(2); // test scale: only the largest areas have 21 x 40 sales
    for (const r of fitted) expect(r.dry_ks_after_shape as number, r.pin_area).toBeLessThanOrEqual(r.dry_ks_before_shape as number);
    const sum = (f: (r: (typeof rows)[number]) => number) => fitted.reduce((s, r) => s + f(r), 0);
    expect(sum((r) => r.dry_ks_after_shape as number)).toBeLessThan(0.8 * sum((r) => r.dry_ks_before_shape as number));
    for (const r of rows) expect(r.ks_noise_95).toBeCloseTo(1.358 * Math.sqrt(1 / r.real_n + 1 / r.syn_n), 3);
  });

  it('spreads prices within PIN areas as the real sales do (weighted IQR within 10%, most areas within KS 0.12)', () => {
    const s = gen.realism.pin_areas.summary;
    expect(Math.abs(s.syn_iqr_log / s.real_iqr_log - 1)).toBeLessThan(0.1);
    expect(Math.abs(s.syn_tail_share / s.real_tail_share - 1)).toBeLessThan(0.25);
    expect(gen.realism.pin_areas.rows.filter((r) => r.ks <= 0.12).length).toBeGreaterThan(20);
  });

  it('sets char_renovation and char_repair_cnd at the real sample rates (4/70 renovated, 7/70 below average, none above)', () => {
    const chars = readCsv(join(dir, 'raw', 'ccao_res_characteristics.csv'));
    const share = (f: (r: Record<string, string>) => boolean): number => chars.filter(f).length / chars.length;
    // each row's flag is a Bernoulli draw at the rate: within 4 binomial standard errors
    const near = (got: number, rate: number) => expect(Math.abs(got - rate)).toBeLessThan(4 * Math.sqrt((rate * (1 - rate)) / chars.length));
    near(share((r) => r.char_renovation === '1'), GENERATOR.v.char_renovation_rate);
    near(share((r) => r.char_repair_cnd === '3'), GENERATOR.v.char_repair_below_rate);
    expect(share((r) => r.char_repair_cnd === '1')).toBe(0);
  });

  it('holds the non-flip distressed stock of an area to its real lower tail: none left where the fit keeps none', () => {
    const rows = gen.realism.pin_areas.rows.filter((r) => r.distressed_kept_share !== null);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.distressed_kept_share as number).toBeGreaterThanOrEqual(0);
      expect(r.distressed_kept_share as number).toBeLessThanOrEqual(1);
    }
    const none = new Set(rows.filter((r) => r.distressed_kept_share === 0).map((r) => r.pin_area));
    expect(none.size).toBeGreaterThan(0); // test scale seed 7: the large uniform suburban areas
    const truth = readCsv(join(dir, 'truth', 'sales_truth.csv')).filter((t) => t.county === 'cook' && t.property_type !== 'condo' && none.has(t.pin.slice(0, 2)));
    expect(truth.length).toBeGreaterThan(100);
    const flipPins = new Set(truth.filter((t) => t.flip_role !== '').map((t) => t.pin)); // a flip's defect rows carry no role
    expect(truth.filter((t) => t.condition === 'distressed' && !flipPins.has(t.pin)).length).toBe(0);
    expect(truth.filter((t) => t.condition === 'distressed' && t.flip_role === 'buy').length).toBeGreaterThan(0); // flips stay
  });

  it('reports the real sample\'s own noise per area and the spread of the real neighborhood medians alone', () => {
    for (const r of gen.realism.pin_areas.rows) {
      expect(r.real_tail_rel_se).toBeCloseTo(Math.sqrt((r.real_tail_share * (1 - r.real_tail_share)) / r.real_n) / r.real_tail_share, 3);
      expect(r.real_iqr_rel_se).toBeGreaterThan(0);
      expect(r.iqr_within_real_noise_95).toBe(Math.abs(r.syn_iqr_log / r.real_iqr_log - 1) <= 1.96 * r.real_iqr_rel_se);
    }
    expect(gen.realism.pin_areas.rows.filter((r) => r.real_nbhd_median_iqr_log !== null).length).toBeGreaterThan(25);
  });

  it('measures each area\'s IQR floor on request without changing a byte of the corpus', async () => {
    const other = mkdtempSync(join(tmpdir(), 'avm-gen-floor-'));
    try {
      const withFloor = await generateCorpus({ seed: 7, scale: 'test', outDir: other, exportCondition: false, floorDiagnostic: true });
      const a = digestTree(dir), b = digestTree(other);
      delete a['truth/realism.json']; delete b['truth/realism.json'];
      expect(b).toEqual(a);
      const rows = withFloor.realism.pin_areas.rows.filter((r) => r.floor_iqr_log !== null);
      expect(rows.length).toBeGreaterThan(25);
      for (const r of rows) expect(r.iqr_reachable).toBe((r.floor_iqr_log as number) <= 1.1 * r.real_iqr_log);
      expect(gen.realism.pin_areas.rows.every((r) => r.floor_iqr_log === null)).toBe(true);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('leaves the condition out of the exported sales when exportCondition is false; the truth keeps it', () => {
    expect(headerOf(join(dir, 'raw', CCAO_SALES.file))).not.toContain('sale_condition');
    expect(headerOf(join(dir, 'raw', LAKE_GIS_SALES.file))).not.toContain('CONDITION');
    expect(headerOf(join(dir, 'truth', 'sales_truth.csv'))).toContain('condition');
  });
});
