// The calibration/model registry on PostgreSQL (db/migrations/0203): the document in model_registry (one row), tables
// and reports by version. A submission or rollback locks the document row (SELECT … FOR UPDATE) for its transaction,
// so two replicas calibrating at once both land in the history and the later one's champion wins, never a lost write.
import type pg from 'pg';
import type { CalibrationReport } from '../valuation/calibration/job.js';
import type { CalibrationTable } from '../valuation/decide/segment.js';
import { inTransaction, type PgPool } from '../store/pg/pool.js';
import { docAfterRollback, docAfterSubmit, EMPTY_REGISTRY, registryEntryFor, type ModelRegistryDoc } from './model-registry.js';
import type { RegistryStore } from './registry-store.js';

async function lockedDoc(c: pg.PoolClient): Promise<ModelRegistryDoc> {
  await c.query('INSERT INTO model_registry (id, doc) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [JSON.stringify(EMPTY_REGISTRY)]);
  return (await c.query<{ doc: ModelRegistryDoc }>('SELECT doc FROM model_registry WHERE id = 1 FOR UPDATE')).rows[0].doc;
}

const PUT_TABLE = 'INSERT INTO calibration_tables (version, tbl) VALUES ($1, $2) ON CONFLICT (version) DO UPDATE SET tbl = EXCLUDED.tbl';

const saveDoc = (c: pg.PoolClient, doc: ModelRegistryDoc) => c.query('UPDATE model_registry SET doc = $1, updated_at = clock_timestamp() WHERE id = 1', [JSON.stringify(doc)]);

/** `stamp()`: changes with every registry change (what the replicas' followers compare). */
export function openPgRegistry(pool: PgPool): RegistryStore & { stamp(): Promise<string | null> } {
  return {
    async stamp() {
      return (await pool.query<{ s: string }>("SELECT updated_at::text || ' ' || md5(doc::text) AS s FROM model_registry WHERE id = 1")).rows[0]?.s ?? null;
    },
    async document() {
      return (await pool.query<{ doc: ModelRegistryDoc }>('SELECT doc FROM model_registry WHERE id = 1')).rows[0]?.doc ?? EMPTY_REGISTRY;
    },
    async getTable(version) {
      return (await pool.query<{ tbl: CalibrationTable }>('SELECT tbl FROM calibration_tables WHERE version = $1', [version])).rows[0]?.tbl ?? null;
    },
    submit: (table, gates) =>
      inTransaction(pool, async (c) => {
        const entry = registryEntryFor(table, gates);
        const next = docAfterSubmit(await lockedDoc(c), entry);
        await c.query(PUT_TABLE, [table.version, JSON.stringify(table)]);
        await saveDoc(c, next);
        return entry;
      }),
    rollback: () =>
      inTransaction(pool, async (c) => {
        const next = docAfterRollback(await lockedDoc(c));
        if (!next) return null;
        await saveDoc(c, next);
        return next.champion;
      }),
    putReport: (report) =>
      inTransaction(pool, async (c) => {
        await c.query('INSERT INTO calibration_reports (version, report) VALUES ($1, $2) ON CONFLICT (version) DO UPDATE SET report = EXCLUDED.report', [report.version, JSON.stringify(report)]);
        // a new report is a registry change the replicas' followers mirror (their stamp is the row's updated_at)
        await c.query('UPDATE model_registry SET updated_at = clock_timestamp() WHERE id = 1');
      }),
    async putTable(table) {
      await pool.query(PUT_TABLE, [table.version, JSON.stringify(table)]);
    },
    async putDocument(doc) {
      await inTransaction(pool, async (c) => {
        await lockedDoc(c);
        await saveDoc(c, doc);
      });
    },
    async getReport(version) {
      return (await pool.query<{ report: CalibrationReport }>('SELECT report FROM calibration_reports WHERE version = $1', [version])).rows[0]?.report ?? null;
    },
  };
}
