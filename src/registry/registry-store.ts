// The calibration/model registry as one interface over either backend: the LMDB `calibration` sub-database of one
// process (model-registry.ts + report-store.ts, today's layout) or PostgreSQL tables shared by replicas
// (registry-pg.ts). The promotion rules are one implementation (model-registry.ts docAfterSubmit/docAfterRollback);
// both pass test/registry/registry.contract.test.ts.
import type { Store } from '../store/store.js';
import type { CalibrationReport } from '../valuation/calibration/job.js';
import type { CalibrationTable } from '../valuation/decide/segment.js';
import { DB_NAMES, openSubDb } from '../store/env.js';
import { calibrationTableKey, MODEL_REGISTRY_KEY, openModelRegistry, type GateSummary, type ModelRegistryDoc, type RegistryEntry } from './model-registry.js';
import { openCalibrationReports } from './report-store.js';

export type RegistryStore = {
  document(): Promise<ModelRegistryDoc>;
  getTable(version: string): Promise<CalibrationTable | null>;
  /** Stores the table and promotes it when its gates pass; concurrent submissions are serialized, none is lost. */
  submit(table: CalibrationTable, gates: GateSummary): Promise<RegistryEntry>;
  rollback(): Promise<RegistryEntry | null>;
  putReport(report: CalibrationReport): Promise<void>;
  getReport(version: string): Promise<CalibrationReport | null>;
  /** Mirror writes (registry-sync.ts): a table, and the whole document, exactly as another registry holds them. */
  putTable(table: CalibrationTable): Promise<void>;
  putDocument(doc: ModelRegistryDoc): Promise<void>;
};

export function lmdbRegistry(store: Store): RegistryStore {
  const reg = openModelRegistry(store);
  const reports = openCalibrationReports(store);
  const db = openSubDb(store.env, DB_NAMES.calibration);
  return {
    document: async () => reg.document(),
    getTable: async (v) => reg.getTable(v),
    submit: (t, g) => reg.submit(t, g),
    rollback: () => reg.rollback(),
    putReport: (r) => reports.put(r),
    getReport: async (v) => reports.get(v),
    putTable: async (t) => void (await db.put(calibrationTableKey(t.version), t)),
    putDocument: async (doc) => void (await db.put(MODEL_REGISTRY_KEY, doc)),
  };
}
