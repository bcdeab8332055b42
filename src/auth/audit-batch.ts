// What both audit backends share (LMDB src/auth/audit.ts, PostgreSQL src/store/pg/audit.ts): calls are counted and
// audited in memory and written together, one write per batch (audit_batch_ms or audit_batch_max_records), not one
// per call; and the operator's analytics aggregate over metering rows, whoever stored them.
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import type { Caller } from './authorize.js';
import { utcDay } from '../store/days.js';

/** One audited call of a keyed caller. Anonymous calls are metered (counted) but not audited: no IP is kept for them. */
export type AuditRecord = { key_id: string; op: string; at: string; status: number; request_id: string; ip: string };

/** Metering bucket of a call: a key id, or `anonymous`, or `rejected` (an invalid key was presented). */
export type MeterSubject = string;
/** One metering row: calls of a subject to an operation on a UTC day (YYYY-MM-DD). */
export type MeterRow = { day: string; subject: MeterSubject; op: string; calls: number };

export type AuditBatch = { meter: MeterRow[]; records: AuditRecord[] };

export function meterSubjectOf(caller: Caller): MeterSubject {
  return caller.kind === 'key' ? caller.key.id : caller.kind;
}

export type AuditBatcher = {
  record(e: { caller: Caller; op: string; status: number; requestId: string; atMs?: number }): void;
  flush(): Promise<void>;
  close(): Promise<void>;
};

/** Batches record() calls into `write` (fire-and-forget; a failed batch goes to onError and is not retried). */
export function auditBatcher(write: (b: AuditBatch) => Promise<unknown>, o: { now: () => number; onError?: (e: unknown) => void }): AuditBatcher {
  let pending: Promise<unknown> = Promise.resolve();
  const meter = new Map<string, MeterRow>();
  let records: AuditRecord[] = [];
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const commit = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (closed || (meter.size === 0 && records.length === 0)) return;
    const batch = { meter: [...meter.values()], records };
    meter.clear();
    records = [];
    const written = write(batch).catch((e) => o.onError?.(e));
    // settles to undefined so the chain does not keep every earlier result alive
    pending = Promise.all([pending, written]).then(() => undefined);
  };
  return {
    record({ caller, op, status, requestId, atMs }) {
      const at = new Date(atMs ?? o.now()).toISOString();
      const row = { day: at.slice(0, 10), subject: meterSubjectOf(caller), op, calls: 0 };
      const k = `${row.day}:${row.subject}:${op}`;
      const m = meter.get(k) ?? row;
      m.calls += 1;
      meter.set(k, m);
      if (caller.kind === 'key') records.push({ key_id: caller.key.id, op, at, status, request_id: requestId, ip: caller.ip });
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
  };
}

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

/** The window of `days` UTC dates ending today (inclusive) at `nowMs`. */
export function analyticsWindow(days: number, nowMs: number): { from: string; to: string } {
  return { to: utcDay(new Date(nowMs)), from: utcDay(new Date(nowMs - (days - 1) * 86_400_000)) };
}

/** The analytics of the metering rows of one window. */
export function aggregateMeter(rows: Iterable<MeterRow>, days: number, w: { from: string; to: string }): Analytics {
  const byDay = new Map<string, { date: string; anonymous: number; keyed: number; rejected: number }>();
  const byOp = new Map<string, number>();
  const keys = new Set<string>();
  for (const { day: date, subject, op, calls } of rows) {
    const day = byDay.get(date) ?? { date, anonymous: 0, keyed: 0, rejected: 0 };
    if (subject === 'anonymous') day.anonymous += calls;
    else if (subject === 'rejected') day.rejected += calls;
    else {
      day.keyed += calls;
      keys.add(subject);
    }
    byDay.set(date, day);
    byOp.set(op, (byOp.get(op) ?? 0) + calls);
  }
  const dayRows = [...byDay.values()].sort((a, b) => a.date.localeCompare(b.date));
  const sum = (f: (d: (typeof dayRows)[number]) => number): number => dayRows.reduce((n, d) => n + f(d), 0);
  return {
    days,
    from: w.from,
    to: w.to,
    total_calls: sum((d) => d.anonymous + d.keyed + d.rejected),
    anonymous_calls: sum((d) => d.anonymous),
    keyed_calls: sum((d) => d.keyed),
    rejected_calls: sum((d) => d.rejected),
    active_keys: keys.size,
    by_day: dayRows,
    by_operation: [...byOp].map(([op, calls]) => ({ op, calls })).sort((a, b) => b.calls - a.calls || a.op.localeCompare(b.op)),
  };
}
