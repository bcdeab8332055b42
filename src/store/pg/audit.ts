// The per-key audit and call metering in PostgreSQL (issue 18): every replica's batches land in the same tables, so
// an owner's audit page and the operator's analytics count the calls of all replicas. Batched as on LMDB
// (src/auth/audit-batch.ts): one multi-row insert and one metering upsert per batch, in one transaction.
import { checkDays, retentionCutoff, type Audit } from '../../auth/audit.js';
import { aggregateMeter, analyticsWindow, auditBatcher, type AuditBatch, type AuditRecord, type MeterRow } from '../../auth/audit-batch.js';
import { inTransaction, type PgPool } from './pool.js';
import { utcDay } from '../days.js';

const RECORD_COLUMNS = 'key_id, op, at, status, request_id, ip';

async function writeBatch(pool: PgPool, b: AuditBatch): Promise<void> {
  await inTransaction(pool, async (c) => {
    if (b.meter.length > 0) {
      // unnest of parallel arrays: one statement whatever the batch size
      await c.query(
        `INSERT INTO audit_meter (day, subject, op, calls) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[])
         ON CONFLICT (day, subject, op) DO UPDATE SET calls = audit_meter.calls + EXCLUDED.calls`,
        [b.meter.map((m) => m.day), b.meter.map((m) => m.subject), b.meter.map((m) => m.op), b.meter.map((m) => m.calls)],
      );
    }
    if (b.records.length > 0) {
      const r = b.records;
      await c.query(
        `INSERT INTO audit_records (${RECORD_COLUMNS}) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[])`,
        [r.map((x) => x.key_id), r.map((x) => x.op), r.map((x) => x.at), r.map((x) => x.status), r.map((x) => x.request_id), r.map((x) => x.ip)],
      );
    }
  });
}

export function openPgAudit(pool: PgPool, opts: { now?: () => number; onError?: (e: unknown) => void } = {}): Audit {
  const now = opts.now ?? Date.now;
  const batcher = auditBatcher((b) => writeBatch(pool, b), { now, onError: opts.onError });
  const records = async (sql: string, args: unknown[]): Promise<AuditRecord[]> => (await pool.query<AuditRecord>(sql, args)).rows;
  return {
    ...batcher,
    async pruneAudit(nowMs) {
      const cutoff = retentionCutoff(nowMs);
      return inTransaction(pool, async (c) => {
        const a = await c.query('DELETE FROM audit_records WHERE at < $1', [cutoff.toISOString()]);
        const m = await c.query('DELETE FROM audit_meter WHERE day < $1', [utcDay(cutoff)]);
        return { removed: (a.rowCount ?? 0) + (m.rowCount ?? 0) };
      });
    },
    async analytics(days, nowMs) {
      const d = checkDays(days);
      const w = analyticsWindow(d, nowMs ?? now());
      const rows = await pool.query<{ day: string; subject: string; op: string; calls: string }>('SELECT day, subject, op, calls FROM audit_meter WHERE day >= $1 AND day <= $2', [w.from, w.to]);
      return aggregateMeter(rows.rows.map((r): MeterRow => ({ ...r, calls: Number(r.calls) })), d, w);
    },
    auditFor: (keyId) => records(`SELECT ${RECORD_COLUMNS} FROM audit_records WHERE key_id = $1 ORDER BY at, n`, [keyId]),
    latestFor: (keyId, sinceIso, limit) =>
      records(`SELECT ${RECORD_COLUMNS} FROM audit_records WHERE key_id = $1 AND at >= $2 ORDER BY at DESC, n DESC LIMIT $3`, [keyId, sinceIso, limit]),
  };
}
