import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/reference/csv.js';
import {
  equalizationFactorFor, levelOfAssessment, loadClassCodes, loadDeedTypes, loadNeighborhoodGroups, loadNeighborhoods, loadPinAreaTownships,
  loadPriceLevels, loadTownships, loadZipCentroids, normalizeMunicipality, taxRateFor,
} from '../../src/reference/load.js';

const RAW_EQ = join(import.meta.dirname, '../../../shared/data/raw/uic-gfrc-proptax/eq_factor.csv');

describe('equalizationFactorFor(year)', () => {
  it('returns the 2019 final factor 2.916 (uic-gfrc eq_factor.csv row "2019,2.7523,2.916")', () => {
    expect(equalizationFactorFor(2019)).toEqual({ factor: 2.916, tentative: 2.7523, yearUsed: 2019 });
  });
  it.skipIf(!existsSync(RAW_EQ))('matches the raw file for every year', () => {
    for (const r of parseCsv(readFileSync(RAW_EQ, 'utf8'))) {
      expect(equalizationFactorFor(Number(r.year))?.factor).toBe(Number(r.eq_factor_final));
    }
  });
  it('falls back to the latest year on or before the request, and null before 1980', () => {
    expect(equalizationFactorFor(2030)?.yearUsed).toBe(2023);
    expect(equalizationFactorFor(1979)).toBeNull();
  });
  it('rejects a non-integer year with validation_failed', () => {
    expect(() => equalizationFactorFor(2019.5)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});

describe('taxRateFor(municipality, year)', () => {
  it('returns the exact year when present (Alsip 2006 current rate 0.082 in the source)', () => {
    const r = taxRateFor('Alsip', 2006);
    expect(r?.yearUsed).toBe(2006);
    expect(r?.currentRateAvg).toBe(0.082);
    expect(r?.effectiveRate).toBeCloseTo(0.04724, 9); // source muni_effective_rate 4.724 (percent) / 100
  });
  it('uses the nearest earlier year and says so', () => {
    expect(taxRateFor('village of mount prospect', 2031)?.yearUsed).toBe(2023);
    expect(taxRateFor('Chicago', 2005)).toBeNull();
    expect(taxRateFor('Atlantis', 2020)).toBeNull();
  });
  it('normalises names', () => {
    expect(normalizeMunicipality('Village of Mount Prospect')).toBe('mt prospect');
  });
});

describe('levelOfAssessment(classCode, year)', () => {
  it('gives 10% for class 211 in 2023 and 16% in 2000 (ccao.loa.csv)', () => {
    expect(levelOfAssessment('211', 2023)).toEqual({ loa: 0.1, yearUsed: 2023 });
    expect(levelOfAssessment(211, 2000)).toEqual({ loa: 0.16, yearUsed: 2000 });
  });
  it('is null for a class the file does not carry', () => {
    expect(levelOfAssessment('517', 2020)).toBeNull();
  });
});

describe('loaders', () => {
  it('load typed, cached values', () => {
    expect(loadNeighborhoods()).toBe(loadNeighborhoods());
    expect(loadTownships().features).toHaveLength(38);
    expect(loadZipCentroids().find((z) => z.zip === '60004')?.county).toBe('cook');
    const c211 = loadClassCodes().find((c) => c.classCode === '211');
    expect([c211?.unitsMin, c211?.unitsMax, c211?.modelingGroup]).toEqual([2, 6, 'MF']);
    expect(loadClassCodes().find((c) => c.classCode === '203')?.unitsMax).toBeNull();
    expect(loadDeedTypes().filter((d) => d.armsLength).map((d) => d.code)).toEqual([1, 2]);
    expect(loadPriceLevels().county['2019'].all?.n).toBe(68474);
    expect(new Set(loadPinAreaTownships().map((r) => r.pinArea)).size).toBe(33);
    expect(loadNeighborhoodGroups()).toHaveLength(573);
    expect(loadNeighborhoodGroups().find((g) => g.townNbhd === '73011')).toEqual({ townNbhd: '73011', groupName: 'Lake View 1' });
  });
});
