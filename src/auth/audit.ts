// Per-key audit records and per-day metering in the LMDB `audit` sub-db, the 12-month retention sweep, and the
// operator analytics aggregates. Writes are batched fire-and-forget (one transaction per audit_batch_ms): metering is
// not user state and must not add latency; analytics read what is committed, so the last batch shows up after it lands.
import type { RootDatabase } from 'lmdb';
import { AppError } from '../errors/app-error.js';
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import type { Awaitable } from '../store/awaitable.js';
import { DB_NAMES, openSubDb } from '../store/env.js';
import { INDEXED_MARK, keyIndexOf } from './audit-index.js';
import { aggregateMeter, analyticsWindow, auditBatcher, type Analytics, type AuditBatcher, type AuditRecord, type MeterRow } from './audit-batch.js';
import { schedulePeriodicSweep, type Sweeper } from '../store/sweep.js';
import { utcDay } from '../store/days.js';

export { meterSubjectOf, type Analytics, type AuditRecord, type MeterSubject } from './audit-batch.js';

/** The audit whichever backend stores it (PostgreSQL: src/store/pg/audit.ts). */
export type Audit = AuditBatcher & {
  /** Deletes audit records and metering rows older than 12 calendar months before `nowMs`. */
  pruneAudit(nowMs: number): Promise<{ removed: number }>;
  analytics(days: number, nowMs?: number): Awaitable<Analytics>;
  auditFor(keyId: string): Awaitable<AuditRecord[]>;
  /** The key's records at or after `sinceIso`, newest first, at most `limit`. */
  latestFor(keyId: string, sinceIso: string, limit: number): Awaitable<AuditRecord[]>;
};

/** The LMDB audit answers reads synchronously. record() writes are fire-and-forget; flush() waits for them. */
export type LmdbAudit = Omit<Audit, 'analytics' | 'auditFor' | 'latestFor'> & {
  analytics(days: number, nowMs?: number): Analytics;
  auditFor(keyId: string): AuditRecord[];
  latestFor(keyId: string, sinceIso: string, limit: number): AuditRecord[];
};

export function openAudit(env: RootDatabase, opts: { now?: () => number; onError?: (e: unknown) => void } = {}): LmdbAudit {
  const db = openSubDb<AuditRecord | number>(env, DB_NAMES.audit);
  const now = opts.now ?? Date.now;
  let counter = 0;
  const batcher = auditBatcher(
    (b) =>
      db.transaction(() => {
        for (const m of b.meter) {
          const k = `m:${m.day}:${m.subject}:${m.op}`;
          db.put(k, ((db.get(k) as number | undefined) ?? 0) + m.calls);
        }
        for (const rec of b.records) {
          // ISO timestamps of equal width sort lexicographically in time order; the counter keeps same-ms records apart.
          const k = `a:${rec.at}:${rec.key_id}:${(counter = (counter + 1) % 1e9)}`;
          db.put(k, rec);
          db.put(keyIndexOf(k), rec);
        }
      }),
    { now, onError: opts.onError },
  );
  return {
    ...batcher,
    async pruneAudit(nowMs) {
      const cutoff = retentionCutoff(nowMs);
      const old = [
        ...db.getKeys({ start: 'a:', end: `a:${cutoff.toISOString()}` }),
        ...db.getKeys({ start: 'm:', end: `m:${utcDay(cutoff)}` }),
      ];
      const unindexed = db.get(INDEXED_MARK) === undefined ? [...db.getRange({ start: 'a:', end: 'a;' })] : [];
      await db.transaction(() => {
        for (const { key, value } of unindexed) db.put(keyIndexOf(String(key)), value);
        db.put(INDEXED_MARK, 1);
        for (const k of old) {
          db.remove(k);
          if (String(k).startsWith('a:')) db.remove(keyIndexOf(String(k)));
        }
      });
      await db.flushed;
      return { removed: old.length };
    },
    analytics(days, nowMs) {
      const d = checkDays(days);
      const w = analyticsWindow(d, nowMs ?? now());
      return aggregateMeter(meterRows(db, w), d, w);
    },
    auditFor(keyId) {
      return [...db.getRange({ start: 'a:', end: 'a;' })].map(({ value }) => value as AuditRecord).filter((r) => r.key_id === keyId);
    },
    latestFor(keyId, sinceIso, limit) {
      const range = db.getRange({ start: `k:${keyId};`, end: `k:${keyId}:${sinceIso}`, reverse: true, limit });
      return [...range].map(({ value }) => value as AuditRecord);
    },
  };
}

function* meterRows(db: ReturnType<typeof openSubDb<AuditRecord | number>>, w: { from: string; to: string }): Iterable<MeterRow> {
  for (const { key, value } of db.getRange({ start: `m:${w.from}`, end: `m:${w.to};` })) {
    const [, day, subject, ...opParts] = String(key).split(':');
    yield { day, subject, op: opParts.join(':'), calls: Number(value) };
  }
}

/** Removes rows past retention now and every audit_sweep_interval_hours; stop() ends it after a sweep in progress. */
export function scheduleAuditSweep(audit: Pick<Audit, 'pruneAudit'>, onError: (e: unknown) => void, now: () => number = Date.now): Sweeper {
  return schedulePeriodicSweep(() => audit.pruneAudit(now()), AUTH_LIMITS.v.audit_sweep_interval_hours, onError);
}

/** 12 calendar months before now (UTC): 2026-11-21T10:00Z → 2025-11-21T10:00Z. */
export function retentionCutoff(nowMs: number): Date {
  const d = new Date(nowMs);
  d.setUTCMonth(d.getUTCMonth() - AUTH_LIMITS.v.audit_retention_months);
  return d;
}

/** Parses the `days` query of GET /api/admin/analytics: an integer 1..366, else validation_failed. */
export function parseAnalyticsDays(raw: unknown): number {
  const s = Array.isArray(raw) ? raw[0] : raw;
  if (typeof s !== 'string' || !/^\d{1,4}$/.test(s)) throw new AppError('validation_failed', `days must be an integer from 1 to ${AUTH_LIMITS.v.analytics_max_days}`);
  return checkDays(Number(s));
}

export function checkDays(days: number): number {
  if (!Number.isInteger(days) || days < 1 || days > AUTH_LIMITS.v.analytics_max_days) {
    throw new AppError('validation_failed', `days must be an integer from 1 to ${AUTH_LIMITS.v.analytics_max_days}`);
  }
  return days;
}
