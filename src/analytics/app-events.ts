// The public app's consented analytics events in the LMDB `app_analytics` sub-db, their retention sweep and the funnel
// GET /api/admin/analytics returns. A record is the validated event and its UTC date, nothing else: no time of day,
// no IP, no key (the door never passes the caller). Keys `e:<date>:<session>:<random>` sort by day, so a window and
// the sweep are one key range each.
import { randomBytes } from 'node:crypto';
import type { RootDatabase } from 'lmdb';
import { ANALYTICS_KINDS, FUNNEL_STEPS, MAP_FILTERS, type AnalyticsEventInput, type AnalyticsKind, type AppFunnel } from '../contracts/analytics.js';
import { VALUATION_OUTCOMES } from '../contracts/valuation.js';
import { APP_ANALYTICS } from '../registry/groups/app-analytics.js';
import { DB_NAMES, openSubDb } from '../store/env.js';
import { schedulePeriodicSweep, type Sweeper } from '../store/sweep.js';
import { utcDay } from '../store/days.js';

/** What is stored per event: the kind and its one closed detail (page, outcome, tool or filter). */
type StoredEvent = { kind: AnalyticsKind; detail: string };

export type AppEvents = {
  record(event: AnalyticsEventInput): Promise<void>;
  /** Events stored, all days (the tests' before/after count). */
  count(): number;
  funnel(days: number, nowMs: number): AppFunnel;
  /** Removes events of days older than event_retention_days before `nowMs`. */
  prune(nowMs: number): Promise<{ removed: number }>;
};

const DAY_MS = 86_400_000;
const utcDate = (ms: number): string => utcDay(new Date(ms));
const zeroes = <K extends string>(keys: readonly K[]): Record<K, number> => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

function detailOf(e: AnalyticsEventInput): string {
  switch (e.kind) {
    case 'page_view': return e.page;
    case 'valuation_opened': return e.outcome;
    case 'tool_used': return e.tool;
    case 'map_filter_changed': return e.filter;
  }
}

export function openAppEvents(env: RootDatabase, opts: { now?: () => number } = {}): AppEvents {
  const db = openSubDb<StoredEvent>(env, DB_NAMES.appAnalytics);
  const now = opts.now ?? Date.now;
  return {
    async record(e) {
      // a random suffix, not a clock or counter: the key must not carry the time of day the record itself leaves out
      await db.put(`e:${utcDate(now())}:${e.session}:${randomBytes(6).toString('base64url')}`, { kind: e.kind, detail: detailOf(e) });
    },
    count() {
      return db.getKeysCount({ start: 'e:', end: 'e;' });
    },
    funnel(days, nowMs) {
      return aggregate(db.getRange({ start: `e:${utcDate(nowMs - (days - 1) * DAY_MS)}`, end: `e:${utcDate(nowMs)};` }));
    },
    async prune(nowMs) {
      const keep = utcDate(nowMs - (APP_ANALYTICS.v.event_retention_days - 1) * DAY_MS);
      const old = [...db.getKeys({ start: 'e:', end: `e:${keep}` })];
      await db.transaction(() => {
        for (const k of old) db.remove(k);
      });
      return { removed: old.length };
    },
  };
}

function aggregate(rows: Iterable<{ key: string | number; value: StoredEvent }>): AppFunnel {
  const byKind = zeroes(ANALYTICS_KINDS);
  const outcomes = zeroes(VALUATION_OUTCOMES);
  const filters = zeroes(MAP_FILTERS);
  const tools = new Map<string, number>();
  const days = new Map<string, { sessions: Set<string>; by_kind: Record<AnalyticsKind, number> }>();
  const kindsBySession = new Map<string, Set<AnalyticsKind>>();
  let events = 0;
  for (const { key, value } of rows) {
    const [, date, session] = String(key).split(':');
    const { kind, detail } = value;
    events++;
    byKind[kind]++;
    if (kind === 'valuation_opened') outcomes[detail as keyof typeof outcomes]++;
    if (kind === 'map_filter_changed') filters[detail as keyof typeof filters]++;
    if (kind === 'tool_used') tools.set(detail, (tools.get(detail) ?? 0) + 1);
    const day = days.get(date) ?? { sessions: new Set<string>(), by_kind: zeroes(ANALYTICS_KINDS) };
    day.sessions.add(session);
    day.by_kind[kind]++;
    days.set(date, day);
    kindsBySession.set(session, (kindsBySession.get(session) ?? new Set()).add(kind));
  }
  const reached = (step: number): number => [...kindsBySession.values()].filter((k) => FUNNEL_STEPS.slice(0, step + 1).every((s) => k.has(s))).length;
  return {
    events,
    sessions: kindsBySession.size,
    by_kind: byKind,
    by_day: [...days].sort(([a], [b]) => a.localeCompare(b)).map(([date, d]) => ({ date, sessions: d.sessions.size, by_kind: d.by_kind })),
    funnel: FUNNEL_STEPS.map((step, i) => ({ step, sessions: reached(i) })),
    valuation_outcomes: outcomes,
    map_filters: filters,
    tools: [...tools].map(([tool, n]) => ({ tool, events: n })).sort((a, b) => b.events - a.events || a.tool.localeCompare(b.tool)),
  };
}

/** Sweeps now and every sweep_interval_hours; stop() ends it after a sweep in progress. */
export function scheduleAppEventSweep(store: Pick<AppEvents, 'prune'>, onError: (e: unknown) => void, now: () => number = Date.now): Sweeper {
  return schedulePeriodicSweep(() => store.prune(now()), APP_ANALYTICS.v.sweep_interval_hours, onError);
}
