// The app-event store alone (src/analytics/app-events.ts): what a record holds, the window of UTC days the funnel
// reads, and the retention sweep (event_retention_days), on a clock the test moves.
import { afterEach, describe, expect, it } from 'vitest';
import { openAppEvents } from '../../src/analytics/app-events.js';
import type { AnalyticsEventInput } from '../../src/contracts/analytics.js';
import { APP_ANALYTICS } from '../../src/registry/groups/app-analytics.js';
import { AUTH_LIMITS } from '../../src/registry/groups/auth.js';
import { tempEnv, type TempEnv } from '../http/middleware/support.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-26T15:30:00Z');
let t: TempEnv | undefined;
afterEach(async () => {
  await t?.dispose();
  t = undefined;
});

const view = (session: string): AnalyticsEventInput => ({ consent: 'analytics-v1', session, kind: 'page_view', page: 'map' });

describe('openAppEvents', () => {
  it('stores the kind, its detail and the UTC date only: no time of day, no consent echo, no caller', async () => {
    t = tempEnv();
    const store = openAppEvents(t.env, { now: () => T0 });
    await store.record({ consent: 'analytics-v1', session: 'tabsession1', kind: 'valuation_opened', outcome: 'tier2_range' });
    const [row] = [...t.env.openDB({ name: 'app_analytics' }).getRange()];
    expect(String(row.key)).toMatch(/^e:2026-11-26:tabsession1:[A-Za-z0-9_-]{8}$/);
    expect(row.value).toEqual({ kind: 'valuation_opened', detail: 'tier2_range' });
  });

  it('the funnel reads the last N UTC days, today included', async () => {
    t = tempEnv();
    let now = T0 - 3 * DAY;
    const store = openAppEvents(t.env, { now: () => now });
    await store.record(view('old-session'));
    now = T0;
    await store.record(view('new-session'));
    await store.record({ consent: 'analytics-v1', session: 'new-session', kind: 'tool_used', tool: 'get_comps' });
    expect(store.funnel(1, T0)).toMatchObject({ events: 2, sessions: 1, by_kind: { page_view: 1, tool_used: 1 }, tools: [{ tool: 'get_comps', events: 1 }] });
    expect(store.funnel(1, T0).funnel).toEqual([{ step: 'page_view', sessions: 1 }, { step: 'valuation_opened', sessions: 0 }, { step: 'tool_used', sessions: 0 }]);
    const four = store.funnel(4, T0);
    expect(four.events).toBe(3);
    expect(four.by_day.map((d) => [d.date, d.sessions])).toEqual([['2026-11-23', 1], ['2026-11-26', 1]]);
  });

  it('the sweep removes days past the retention and keeps the rest', async () => {
    t = tempEnv();
    const R = APP_ANALYTICS.v.event_retention_days;
    let now = T0 - R * DAY; // one day past the window on T0
    const store = openAppEvents(t.env, { now: () => now });
    await store.record(view('expiredday1'));
    now = T0 - (R - 1) * DAY; // the oldest day still inside it
    await store.record(view('keptday0001'));
    expect(await store.prune(T0)).toEqual({ removed: 1 });
    expect(store.count()).toBe(1);
    expect(store.funnel(R, T0).events).toBe(1);
  });

  it('keeps events at least as long as the admin aggregate can look back', () => {
    expect(APP_ANALYTICS.v.event_retention_days).toBeGreaterThanOrEqual(AUTH_LIMITS.v.analytics_max_days);
  });
});
