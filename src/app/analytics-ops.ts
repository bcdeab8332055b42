// The public app's consent-only analytics (issue 16 item 4): storing one consented event, and the operator's
// aggregates, which put the call metering (src/auth/audit.ts) beside the app's funnel (src/analytics/app-events.ts)
// for the same window of UTC days.
import type { AnalyticsEventInput } from '../contracts/analytics.js';
import { Reply } from '../contracts/reply.js';
import type { ServiceContext } from './context.js';
import type { DoorServices } from './door-services.js';

export function analyticsOperations(svc: ServiceContext, doors: DoorServices) {
  return {
    // The caller is not passed on: the stored record is the event (no key, no IP). DNT / GPC never reach this
    // function: the door answers 204 before reading the body (src/http/middleware/privacy-signals.ts).
    analytics_event: async (i: AnalyticsEventInput) => {
      await doors.appEvents.record(i);
      return new Reply(null, 204);
    },
    admin_analytics: async (i: { days: number }) => {
      const nowMs = svc.now().getTime();
      return { ...(await doors.audit.analytics(i.days, nowMs)), app: doors.appEvents.funnel(i.days, nowMs) };
    },
  };
}
