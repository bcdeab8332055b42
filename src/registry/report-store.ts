// The calibration report of each calibration version, kept in the `calibration` sub-database beside its table
// (msgpack, key `report:<version>`), so the service can show the champion's report (GET /model) without the
// calibration job: the job writes it, serving only reads it. The report holds aggregates only (rows, figures,
// gates; tens of kilobytes), never per-sale records.
import { DB_NAMES, openSubDb } from '../store/env.js';
import type { Store } from '../store/store.js';
import type { CalibrationReport } from '../valuation/calibration/job.js';
import { openModelRegistry, type ModelRegistryDoc } from './model-registry.js';

const reportKey = (version: string): string => `report:${version}`;

export type CalibrationReports = {
  /** Stores (or replaces) the report of `report.version`; resolves once durable. */
  put(report: CalibrationReport): Promise<void>;
  get(version: string): CalibrationReport | null;
};

export function openCalibrationReports(store: Store): CalibrationReports {
  const db = openSubDb(store.env, DB_NAMES.calibration);
  return {
    put: async (report) => {
      await db.put(reportKey(report.version), report);
    },
    get: (version) => (db.get(reportKey(version)) as CalibrationReport | undefined) ?? null,
  };
}

/** Which report GET /model shows, and how it stands in the registry. */
export type ShownReport = {
  registry: ModelRegistryDoc;
  /** The champion's report; without a champion, the latest calibration's (history is newest first). */
  report: CalibrationReport | null;
  /** champion: serving uses it; latest_rejected: no champion, serving shows ranges only; not_champion: a champion exists whose report is not stored. */
  standing: 'champion' | 'latest_rejected' | 'not_champion' | 'none';
};

/** The champion's report when stored, else the newest stored report of the history. */
export function reportToShow(store: Store): ShownReport {
  const registry = openModelRegistry(store).document();
  const reports = openCalibrationReports(store);
  const champion = registry.champion;
  const own = champion ? reports.get(champion.calibrationVersion) : null;
  if (own) return { registry, report: own, standing: 'champion' };
  for (const e of registry.history) {
    const r = reports.get(e.calibrationVersion);
    if (r) return { registry, report: r, standing: champion ? 'not_champion' : 'latest_rejected' };
  }
  return { registry, report: null, standing: 'none' };
}
