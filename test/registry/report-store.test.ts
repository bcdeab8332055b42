// The calibration report is stored beside its table (calibration sub-db, key report:<version>) and comes back equal;
// GET /model's choice: the champion's report, else the newest stored one, else none.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCalibrationReports, reportToShow } from '../../src/registry/report-store.js';
import { openModelRegistry } from '../../src/registry/model-registry.js';
import { openStore, type Store } from '../../src/store/store.js';
import type { CalibrationReport } from '../../src/valuation/calibration/job.js';
import { reportFigures } from '../../src/valuation/calibration/report-figures.js';
import { fixtureTable, fixtureTest } from '../valuation/calibration/report-fixture.js';

const metrics = { n: 40, mdape: 0.081, ppe10: 0.62, coverage80: 0.79, meanWidth80: 0.31, cod: 9.5, prd: 1.01, prb: -0.01, suppressionRate: 0.05 };
const FAILED = { passed: false, checks: [{ gate: 'cod', value: 16.2, target: '<= 10', passed: false }, { gate: 'n', value: 600, target: '>= 30', passed: true }] };

function report(version: string): CalibrationReport {
  return {
    version, snapshotId: 'snap-1',
    holdout: { start: '2024-07-01', split: '2025-07-14', end: '2026-06-30', sales: 1200, calibrationSales: 600, testSales: 600 },
    rows: [{ group: 'overall', ...metrics, prb: null, display: null, q80Lo: null, q80Hi: null, oracleMdape: null, oracleN: 0, oracleCoverage80: null }],
    classes: [{ group: 'sfh_city/step1', ...metrics, interval: 'class', nCalibration: 30, q80Lo: 0.8, q80Hi: 1.25 }],
    gates: FAILED, promoted: false, elapsedMs: 1234, besideTier1: null,
    figures: reportFigures(fixtureTable(), fixtureTest()), conditionClassifier: null,
  };
}

let dir: string;
let store: Store;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'avm-reports-'));
  store = openStore(dir);
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('stored calibration reports', () => {
  it('a report comes back equal (nulls, nested figures) and survives reopening the store', async () => {
    const r = report('cal-a');
    await openCalibrationReports(store).put(r);
    expect(openCalibrationReports(store).get('cal-a')).toEqual(r);
    await store.close();
    store = openStore(dir);
    expect(openCalibrationReports(store).get('cal-a')).toEqual(r);
    expect(openCalibrationReports(store).get('cal-none')).toBeNull();
  });

  it('shows nothing before any calibration, the latest rejected one without a champion, the champion\'s once promoted', async () => {
    const fresh = openStore(mkdtempSync(join(tmpdir(), 'avm-reports-fresh-')));
    try {
      expect(reportToShow(fresh)).toMatchObject({ report: null, standing: 'none' });
    } finally {
      await fresh.close();
    }
    const reg = openModelRegistry(store);
    const table = (version: string) => ({ ...fixtureTable(), version });
    await reg.submit(table('cal-a'), FAILED);
    await reg.submit(table('cal-b'), FAILED);
    await openCalibrationReports(store).put(report('cal-b'));
    expect(reportToShow(store)).toMatchObject({ report: { version: 'cal-b' }, standing: 'latest_rejected' });
    await reg.submit(table('cal-a'), { passed: true, checks: [] });
    expect(reportToShow(store)).toMatchObject({ report: { version: 'cal-a' }, standing: 'champion' });
    await reg.submit(table('cal-c'), { passed: true, checks: [] }); // a champion with no stored report
    const shown = reportToShow(store);
    expect(shown.standing).toBe('not_champion');
    expect(shown.registry.champion?.calibrationVersion).toBe('cal-c');
    expect(shown.registry.rollback?.calibrationVersion).toBe('cal-a');
  });
});
