// The public app's consent-only analytics (issue 16 item 4): what a tab session id may look like, how long the coarse
// events are kept and how often the retention sweep runs. The taxonomy itself is closed in src/contracts/analytics.ts.
import { c, defineGroup } from '../define.js';

const ENG = 'engineering choice (issue 16), documented in README "Consent-only analytics"';

export const APP_ANALYTICS = defineGroup({
  name: 'app_analytics',
  version: '1.0.0',
  owner: 'http-mcp',
  entries: {
    session_id_min_chars: c(8, 'characters', 'a tab-session id is random per tab (the map draws 16 base-64url characters); 8 is enough to tell concurrent tabs of a day apart and too short to be a key or a fingerprint', ENG),
    session_id_max_chars: c(32, 'characters', 'longer ids are refused so no identifier (an e-mail, a key) can be smuggled in as a session', ENG),
    event_retention_days: c(366, 'days', 'events are coarse (kind, ladder outcome, tool or filter name, tab session; no IP, key, text or position), so they are kept as long as GET /api/admin/analytics?days= can look back (auth analytics_max_days) and the funnel lines up with the call metering; older days are swept', ENG),
    sweep_interval_hours: c(24, 'hours', 'events older than the retention are removed at start and once a day (the aggregate reads whole UTC days, so a daily sweep keeps the store within a day of the retention)', ENG),
  },
});
