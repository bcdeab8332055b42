// `avm backtest --raw DIR --data-dir OUT [--report FILE]` (issue 14 item 4): ingests a folder of real-layout CCAO
// files (parcel sales, residential characteristics, parcel universe; no tracts, SAFMR, listings or truth needed) into a
// snapshot in OUT, values every arms-length sale as of its sale day from the other, earlier sales (no holdout window:
// the whole history), and returns the all-sales figures per segment and overall beside the naive comps estimator. The
// conformal interval is split in time: calibrated on the ARV sales before the split day, measured on those after.
// Nothing is submitted to OUT's model registry: a backtest changes nothing that is served.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppError } from '../../errors/app-error.js';
import { ingestAll } from '../../ingest/ingest.js';
import { CCAO_PARCEL_UNIVERSE, CCAO_RES_CHARS, CCAO_SALES } from '../../ingest/layouts.js';
import { VALUATION_REGISTRY_VERSION } from '../../registry/constants.js';
import { MODEL_VERSION } from '../../registry/versions.js';
import { COUNTY_CODE } from '../../store/columns.js';
import { salesColumnsFromArrow } from '../../store/sales-columns.js';
import { openStore } from '../../store/store.js';
import { cookTriadAt } from '../economics/triad.js';
import { kindOfCondition } from './all-sales.js';
import { allSalesSection, type AllSalesSection } from './all-sales-report.js';
import { backtestWindow, runBacktest } from './backtest.js';
import type { BaselineRow } from './baselines.js';
import { buildCalibrationTable } from './table.js';

export const RAW_BACKTEST_FILES = [CCAO_SALES.file, CCAO_RES_CHARS.file, CCAO_PARCEL_UNIVERSE.file] as const;

export type RawBacktestReport = AllSalesSection & {
  name: 'raw_backtest';
  rawDir: string;
  snapshotId: string;
  /** How a sale's city/suburb segment was decided. */
  segmentSource: 'tract_municipality' | 'cook_township_triad';
  /** The ARV calibration of the earlier half, per segment (what the later half's coverage is measured against). */
  calibration: { arvSales: number; calibrationSales: number; segments: Record<string, { q80Lo: number; q80Hi: number; nCalibration: number; display: string }> };
  baselines: BaselineRow[];
  /** Figures the report cannot give from such a folder, and why. */
  nulls: string[];
  elapsedMs: { ingest: number; backtest: number; total: number };
};

/** The folder must exist and hold the three CCAO files (layouts are checked by the loaders as they read). */
export function checkRawFolder(rawDir: string): void {
  if (!existsSync(rawDir) || !statSync(rawDir).isDirectory()) {
    throw new AppError('ingest_invalid_file', `${rawDir}: no such folder (--raw needs a folder holding ${RAW_BACKTEST_FILES.join(', ')})`, { details: { file: null, row: null, column: null, problem: 'missing folder' } });
  }
  const missing = RAW_BACKTEST_FILES.filter((f) => !existsSync(resolve(rawDir, f)));
  if (missing.length > 0) {
    throw new AppError('ingest_invalid_file', `${missing.join(', ')}: required file missing from ${rawDir}`, { details: { file: missing[0], row: null, column: null, problem: 'missing file' } });
  }
}

/** City of Chicago = CCAO triad 1 (the City townships, data/reference/townships.geojson); Lake and the rest are suburb. */
function triadMuni(county: number, lat: number, lon: number): string | null {
  return county === COUNTY_CODE.cook && cookTriadAt(lat, lon) === 'city' ? 'Chicago' : null;
}

export async function runRawBacktest(opts: { rawDir: string; dataDir: string; onProgress?: (msg: string) => void; now?: () => Date }): Promise<RawBacktestReport> {
  const t0 = performance.now();
  const rawDir = resolve(opts.rawDir);
  checkRawFolder(rawDir);
  const ingest = await ingestAll({ dataDir: opts.dataDir, rawDir, tractless: true });
  const tIngest = performance.now();
  opts.onProgress?.(`ingested ${ingest.salesRows} sales of ${ingest.parcels} parcels into snapshot ${ingest.snapshotId}`);
  const store = openStore(opts.dataDir);
  try {
    const snap = store.readSalesSnapshot();
    const sales = salesColumnsFromArrow(snap.table);
    const tracts = store.getTracts();
    const munis = new Map(tracts.map((t) => [t.geoid, t.muni]));
    const byTract = tracts.length > 0;
    const kinds = { kindOf: (row: number) => kindOfCondition(sales.condition[row]), source: 'snapshot_condition' as const, truthOfRow: () => undefined };
    const w = backtestWindow(sales, Infinity);
    const bt = runBacktest(sales, (g) => munis.get(g) ?? null, {
      holdoutDays: Infinity, kindOf: kinds.kindOf, onMonth: (m, n) => opts.onProgress?.(`backtest ${m}: ${n} sales`),
      ...(byTract ? {} : { muniOfRow: (row: number) => triadMuni(sales.county[row], sales.lat[row], sales.lon[row]) }),
    });
    const now = (opts.now ?? (() => new Date()))();
    // startDay of the table meta: the first sale (the window is the whole history).
    const firstDay = bt.scored!.reduce((m, s) => Math.min(m, s.saleDay), w.endDay);
    const table = buildCalibrationTable(bt.records, { createdAt: now.toISOString(), snapshotId: snap.id, modelVersion: MODEL_VERSION, registryVersion: VALUATION_REGISTRY_VERSION, startDay: firstDay, endDay: w.endDay, priorSale: bt.priorSale, priorSaleAsIs: bt.priorSaleAsIs });
    const { section, baselines } = allSalesSection(sales, bt.scored!, bt.records.length > 0 ? table : null, kinds, w);
    const tEnd = performance.now();
    const segments = Object.fromEntries(Object.entries(table.segments).map(([k, r]) => [k, { q80Lo: r.q80Lo, q80Hi: r.q80Hi, nCalibration: r.nCalibration, display: r.display }]));
    const calSales = bt.records.filter((r) => r.saleDay < table.holdout.splitDay).length;
    return {
      name: 'raw_backtest', rawDir, snapshotId: snap.id, segmentSource: byTract ? 'tract_municipality' : 'cook_township_triad', ...section,
      calibration: { arvSales: bt.records.length, calibrationSales: calSales, segments }, baselines,
      nulls: [
        'oracle baseline: a real export has no ground truth',
        ...(byTract ? [] : ['census tract and municipality: no tracts file; city/suburb from the CCAO township polygons (triad 1 = City of Chicago)']),
        'Tier 2 (hedonic): not fitted here; the figures are Tier 1 (ARV) and the as-is value',
        'as_is intervals: report-only split-conformal bands (serving shows the comps quartiles)',
      ],
      elapsedMs: { ingest: Math.round(tIngest - t0), backtest: Math.round(tEnd - tIngest), total: Math.round(tEnd - t0) },
    };
  } finally {
    await store.close();
  }
}
