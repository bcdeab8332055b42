// Per-key audit records and per-day metering in the LMDB `audit` sub-db, the 12-month retention sweep, and the
// operator analytics aggregates. Writes are batched fire-and-forget (one transaction per audit_batch_ms): metering is
// not user state and must not add latency; analytics read what is committed, so the last batch shows up after it lands.
import type { RootDatabase } from 'lmdb';
import { AppError } from '../errors/app-error.js';
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import { DB_NAMES, openSubDb } from '../store/env.js';
import { INDEXED_MARK, keyIndexOf } from './audit-index.js';
import type { Caller } from './authorize.js';
import { schedulePeriodicSweep, type Sweeper } from '../store/sweep.js';

/** One audited call of a keyed caller. Anonymous calls are metered (counted) but not audited: no IP is kept for them. */
export type AuditRecord = { key_id: string; op: string; at: string; status: number; request_id: string; ip: string };

/** Metering bucket of a call: a key id, or `anonymous`, or `rejected` (an invalid key was presented). */
export type MeterSubject = string;

export type Analytics = {
  days: number;
  from: string;
  to: string;
  total_calls: number;
  anonymous_calls: number;
  keyed_calls: number;
  rejected_calls: number;
  active_keys: number;
  by_day: Array<{ date: string; anonymous: number; keyed: number; rejected: number }>;
  by_operation: Array<{ op: string; calls: number }>;
};

export type Audit = {
  record(e: { caller: Caller; op: string; status: number; requestId: string; atMs?: number }): void;
  /** Writes the batch now; resolves when every record() so far is committed. */
  flush(): Promise<void>;
  /**
   * Flushes and stops writing (the store is about to close): a request torn down by the shutdown may still finish and
   * record afterwards; that record is counted in memory only, never written to a closed store.
   */
  close(): Promise<void>;
  /** Deletes audit records and metering rows older than 12 calendar months before `nowMs`. */
  pruneAudit(nowMs: number): Promise<{ removed: number }>;
  analytics(days: number, nowMs?: number): Analytics;
  auditFor(keyId: string): AuditRecord[];
  /** The key's records at or after `sinceIso`, newest first, at most `limit` (the per-key index, see KEY_INDEX). */
  latestFor(keyId: string, sinceIso: string, limit: number): AuditRecord[];
};


export function meterSubjectOf(caller: Caller): MeterSubject {
  return caller.kind === 'key' ? caller.key.id : caller.kind;
}

export function openAudit(env: RootDatabase, opts: { now?: () => number; onError?: (e: unknown) => void } = {}): Audit {
  const db = openSubDb<AuditRecord | number>(env, DB_NAMES.audit);
  const now = opts.now ?? Date.now;
  let counter = 0;
  let pending: Promise<unknown> = Promise.resolve();
  // Calls are counted and audited in memory and written together: one transaction per batch, not one per call.
  const meterAdds = new Map<string, number>();
  let records: Array<[string, AuditRecord]> = [];
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const commit = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (closed || (meterAdds.size === 0 && records.length === 0)) return;
    const adds = [...meterAdds];
    const recs = records;
    meterAdds.clear();
    records = [];
    const written = db.transaction(() => {
      for (const [k, n] of adds) db.put(k, ((db.get(k) as number | undefined) ?? 0) + n);
      for (const [k, rec] of recs) {
        db.put(k, rec);
        db.put(keyIndexOf(k), rec);
      }
    });
    // settles to undefined so the chain does not keep every earlier result alive
    pending = Promise.all([pending, written.catch((e) => opts.onError?.(e))]).then(() => undefined);
  };
  return {
    record({ caller, op, status, requestId, atMs }) {
      const at = new Date(atMs ?? now()).toISOString();
      const meterKey = `m:${at.slice(0, 10)}:${meterSubjectOf(caller)}:${op}`;
      meterAdds.set(meterKey, (meterAdds.get(meterKey) ?? 0) + 1);
      if (caller.kind === 'key') {
        const rec: AuditRecord = { key_id: caller.key.id, op, at, status, request_id: requestId, ip: caller.ip };
        // ISO timestamps of equal width sort lexicographically in time order; the counter keeps same-ms records apart.
        records.push([`a:${at}:${caller.key.id}:${(counter = (counter + 1) % 1e9)}`, rec]);
      }
      if (records.length >= AUTH_LIMITS.v.audit_batch_max_records) commit();
      else if (!timer) timer = setTimeout(commit, AUTH_LIMITS.v.audit_batch_ms).unref();
    },
    async flush() {
      commit();
      await pending;
    },
    async close() {
      commit();
      closed = true;
      await pending;
    },
    async pruneAudit(nowMs) {
      const cutoff = retentionCutoff(nowMs);
      const old = [
        ...db.getKeys({ start: 'a:', end: `a:${cutoff.toISOString()}` }),
        ...db.getKeys({ start: 'm:', end: `m:${cutoff.toISOString().slice(0, 10)}` }),
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
      return aggregate(db, checkDays(days), nowMs ?? now());
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

function checkDays(days: number): number {
  if (!Number.isInteger(days) || days < 1 || days > AUTH_LIMITS.v.analytics_max_days) {
    throw new AppError('validation_failed', `days must be an integer from 1 to ${AUTH_LIMITS.v.analytics_max_days}`);
  }
  return days;
}

/** The window is the last `days` UTC dates ending today, inclusive. */
function aggregate(db: ReturnType<typeof openSubDb<AuditRecord | number>>, days: number, nowMs: number): Analytics {
  const to = new Date(nowMs).toISOString().slice(0, 10);
  const from = new Date(nowMs - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const byDay = new Map<string, { date: string; anonymous: number; keyed: number; rejected: number }>();
  const byOp = new Map<string, number>();
  const keys = new Set<string>();
  for (const { key, value } of db.getRange({ start: `m:${from}`, end: `m:${to};` })) {
    const [, date, subject, ...opParts] = String(key).split(':');
    const calls = Number(value);
    const day = byDay.get(date) ?? { date, anonymous: 0, keyed: 0, rejected: 0 };
    if (subject === 'anonymous') day.anonymous += calls;
    else if (subject === 'rejected') day.rejected += calls;
    else {
      day.keyed += calls;
      keys.add(subject);
    }
    byDay.set(date, day);
    const op = opParts.join(':');
    byOp.set(op, (byOp.get(op) ?? 0) + calls);
  }
  const dayRows = [...byDay.values()].sort((a, b) => a.date.localeCompare(b.date));
  const sum = (f: (d: (typeof dayRows)[number]) => number): number => dayRows.reduce((n, d) => n + f(d), 0);
  return {
    days,
    from,
    to,
    total_calls: sum((d) => d.anonymous + d.keyed + d.rejected),
    anonymous_calls: sum((d) => d.anonymous),
    keyed_calls: sum((d) => d.keyed),
    rejected_calls: sum((d) => d.rejected),
    active_keys: keys.size,
    by_day: dayRows,
    by_operation: [...byOp].map(([op, calls]) => ({ op, calls })).sort((a, b) => b.calls - a.calls || a.op.localeCompare(b.op)),
  };
}
