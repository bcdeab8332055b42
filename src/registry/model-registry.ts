// The model release registry (GET /api/model-registry): versioned calibration tables in the `calibration` sub-db, the
// champion with its immutable artifact digest, promotion gates, and the rollback pointer. A challenger becomes champion
// only when it passes the gates; a failing one is recorded as rejected and serving keeps the champion.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../valuation/canonical/json.js';
import type { CalibrationTable, SegmentMetrics } from '../valuation/decide/segment.js';
import { DB_NAMES, openSubDb } from '../store/env.js';
import type { Store } from '../store/store.js';
import { VALUATION_REGISTRY_VERSION } from './constants.js';
import { COMP_POLICY } from './groups/comp-policy.js';
import { TIER1 } from './groups/tier1.js';
import { MODEL_VERSION } from './versions.js';

export type GateCheck = { gate: string; value: number | null; target: string; passed: boolean };
export type GateSummary = { passed: boolean; checks: GateCheck[] };

export type RegistryEntry = {
  calibrationVersion: string;
  /** SHA-256 over model version, parameters (registry version + comp policy) and the calibration table. */
  digest: string;
  modelVersion: string;
  registryVersion: string;
  snapshotId: string;
  createdAt: string;
  gates: GateSummary;
  status: 'champion' | 'retired' | 'rejected';
};

export type ModelRegistryDoc = { champion: RegistryEntry | null; rollback: RegistryEntry | null; history: RegistryEntry[] };

export const MODEL_REGISTRY_KEY = 'model_registry';
export const calibrationTableKey = (version: string): string => `table:${version}`;
/** History entries kept in the document (older ones stay addressable by their table key). */
const HISTORY_MAX = 20;

/** Immutable digest of a release: code version, parameters and the calibration table, canonical JSON, SHA-256. */
export function artifactDigest(table: CalibrationTable, modelVersion = MODEL_VERSION, registryVersion = VALUATION_REGISTRY_VERSION): string {
  const doc = canonicalJson({ model_version: modelVersion, parameters: { registry: registryVersion, comp_policy: COMP_POLICY.v }, calibration: table });
  return createHash('sha256').update(`avm-model-artifact/v1\n${doc}`, 'utf8').digest('hex');
}

const within = (x: number | null, [lo, hi]: readonly number[]): boolean => x !== null && x >= lo && x <= hi;

/** The promotion gates (constants group tier1_valuation) applied to a backtest's overall test metrics. */
export function evaluatePromotionGates(m: SegmentMetrics): GateSummary {
  const v = TIER1.v;
  const checks: GateCheck[] = [
    { gate: 'coverage80', value: m.coverage80, target: `${v.promote_coverage_range[0]}-${v.promote_coverage_range[1]}`, passed: within(m.coverage80, v.promote_coverage_range) },
    { gate: 'cod', value: m.cod, target: `<= ${v.promote_max_cod}`, passed: m.cod !== null && m.cod <= v.promote_max_cod },
    { gate: 'prd', value: m.prd, target: `${v.promote_prd_range[0]}-${v.promote_prd_range[1]}`, passed: within(m.prd, v.promote_prd_range) },
    { gate: 'prb', value: m.prb, target: `|prb| <= ${v.promote_max_abs_prb}`, passed: m.prb !== null && Math.abs(m.prb) <= v.promote_max_abs_prb },
    { gate: 'n', value: m.n, target: `>= ${v.gate_min_test_n}`, passed: m.n >= v.gate_min_test_n },
  ];
  return { passed: checks.every((c) => c.passed), checks };
}

export type ModelRegistry = {
  document(): ModelRegistryDoc;
  getTable(version: string): CalibrationTable | null;
  /** The champion's calibration table (what serving uses), or null before any promotion. */
  championTable(): CalibrationTable | null;
  /** Stores the table and promotes it when its gates pass; returns the recorded entry. */
  submit(table: CalibrationTable, gates: GateSummary): Promise<RegistryEntry>;
  /** Makes the rollback pointer the champion again (the current champion is retired). */
  rollback(): Promise<RegistryEntry | null>;
};

export function openModelRegistry(store: Store): ModelRegistry {
  const db = openSubDb(store.env, DB_NAMES.calibration);
  const doc = (): ModelRegistryDoc => (db.get(MODEL_REGISTRY_KEY) as ModelRegistryDoc | undefined) ?? EMPTY_REGISTRY;
  const getTable = (version: string): CalibrationTable | null => (db.get(calibrationTableKey(version)) as CalibrationTable | undefined) ?? null;
  return {
    document: doc,
    getTable,
    championTable: () => {
      const c = doc().champion;
      return c ? getTable(c.calibrationVersion) : null;
    },
    async submit(table, gates) {
      const entry = registryEntryFor(table, gates);
      // Read and write in one transaction: two submissions at once must both land in the history.
      await db.transaction(() => {
        db.put(calibrationTableKey(table.version), table);
        db.put(MODEL_REGISTRY_KEY, docAfterSubmit(doc(), entry));
      });
      return entry;
    },
    rollback: () =>
      db.transaction(() => {
        const next = docAfterRollback(doc());
        if (next) db.put(MODEL_REGISTRY_KEY, next);
        return next?.champion ?? null;
      }),
  };
}

/** Per calibration sub-database: the registry document's stored bytes last decoded, and the champion they name. */
const championMemo = new WeakMap<object, { bytes: Buffer; version: string | null }>();

/**
 * The champion's calibration version, as `document().champion?.calibrationVersion` gives it, decoding the document
 * only when its stored bytes changed since the last call: every request's stamp (workers/stamp.ts) reads it, and
 * decoding the whole document cost 10-17 µs of the main thread per request, more as the history grows.
 */
export function championVersion(store: Store): string | null {
  const db = openSubDb(store.env, DB_NAMES.calibration);
  // The stored bytes (a copy: a few KB, far cheaper than decoding them), compared with those last decoded: a write
  // by any process (`avm calibrate` beside a running server) changes them.
  const bytes = db.getBinary(MODEL_REGISTRY_KEY);
  if (bytes === undefined) return null;
  const memo = championMemo.get(db);
  if (memo?.bytes.equals(bytes)) return memo.version;
  const version = (db.get(MODEL_REGISTRY_KEY) as ModelRegistryDoc | undefined)?.champion?.calibrationVersion ?? null;
  championMemo.set(db, { bytes, version });
  return version;
}

/** The registry entry of a submitted table: champion when its gates pass, rejected otherwise. */
export function registryEntryFor(table: CalibrationTable, gates: GateSummary): RegistryEntry {
  return {
    calibrationVersion: table.version, digest: artifactDigest(table, table.modelVersion, table.registryVersion), modelVersion: table.modelVersion,
    registryVersion: table.registryVersion, snapshotId: table.snapshotId, createdAt: table.createdAt, gates, status: gates.passed ? 'champion' : 'rejected',
  };
}

/** The document after a submission (one rule for both backends): a passing entry becomes champion, the old one the rollback. */
export function docAfterSubmit(current: ModelRegistryDoc, entry: RegistryEntry): ModelRegistryDoc {
  const history = [entry, ...current.history].slice(0, HISTORY_MAX);
  if (entry.status !== 'champion') return { ...current, history };
  return { champion: entry, rollback: current.champion ? { ...current.champion, status: 'retired' } : current.rollback, history };
}

/** The document after a rollback, or null when there is no rollback pointer. */
export function docAfterRollback(current: ModelRegistryDoc): (ModelRegistryDoc & { champion: RegistryEntry }) | null {
  if (!current.rollback) return null;
  const champion: RegistryEntry = { ...current.rollback, status: 'champion' };
  const retired = current.champion ? { ...current.champion, status: 'retired' as const } : null;
  return { champion, rollback: null, history: [champion, ...(retired ? [retired] : []), ...current.history].slice(0, HISTORY_MAX) };
}

export const EMPTY_REGISTRY: ModelRegistryDoc = { champion: null, rollback: null, history: [] };

/** The GET /api/model-registry body: champion, immutable digest, promotion-gate summary, rollback pointer. */
export function modelRegistryDocument(reg: ModelRegistry, tier2?: { current: string | null; models: unknown[] }): Record<string, unknown> {
  const doc = reg.document();
  return {
    /** Tier-2 hedonic_v1 coefficient sets (versioned by `avm fit-hedonic`); `current` is the one served. */
    hedonic_v1: tier2 ?? null,
    model_version: MODEL_VERSION,
    registry_version: VALUATION_REGISTRY_VERSION,
    champion: doc.champion,
    artifact_digest: doc.champion?.digest ?? null,
    promotion_gates: doc.champion?.gates ?? null,
    rollback: doc.rollback,
    history: doc.history,
  };
}

const rates = (m: SegmentMetrics) => ({
  n: m.n, mdape: m.mdape, ppe10: m.ppe10, coverage80: m.coverage80, mean_width80: m.meanWidth80, cod: m.cod, prd: m.prd, prb: m.prb, suppression_rate: m.suppressionRate,
});

/** The GET /api/metrics/scorecard body: per-segment error and suppression rates of the champion's out-of-time test. */
export function scorecardDocument(reg: ModelRegistry): Record<string, unknown> {
  const table = reg.championTable();
  if (!table) return { calibration_version: null, created_at: null, method: 'out_of_time_backtest', segments: [], overall: null, note: 'no calibration has been promoted yet (run `avm calibrate`)' };
  return {
    calibration_version: table.version,
    created_at: table.createdAt,
    method: 'out_of_time_backtest',
    holdout: table.holdout,
    segments: Object.values(table.segments).map((s) => ({ segment: s.segment, display: s.display, display_reason: s.displayReason, n_calibration: s.nCalibration, ...rates(s.test) })),
    overall: rates(table.overall),
  };
}
