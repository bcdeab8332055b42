// The public app's consent-only analytics (issue 16 item 4; spec, REST: "a closed coarse taxonomy and a short tab
// session"): the one event body POST /api/analytics/events accepts and the funnel GET /api/admin/analytics returns.
// Every object is strict and every value closed (an enum or a format-checked id), so nothing free-form can arrive:
// no text, no position, no key. The caller is not recorded either: the event is the whole record.
import { z } from 'zod';
import { APP_ANALYTICS } from '../registry/groups/app-analytics.js';
import { TOOL_NAMES } from './tool-text.js';
import { VALUATION_OUTCOMES } from './valuation.js';

const A = APP_ANALYTICS.v;

export const ANALYTICS_CONSENT = 'analytics-v1';
export const ANALYTICS_KINDS = ['page_view', 'valuation_opened', 'tool_used', 'map_filter_changed'] as const;
/** The funnel's steps in order: a session counts at a step only when it also reached every step before it. */
export const FUNNEL_STEPS = ['page_view', 'valuation_opened', 'tool_used'] as const;
export const MAP_FILTERS = ['tract_signal', 'strategy'] as const;
export const ANALYTICS_PAGES = ['map'] as const;

const SESSION_PATTERN = new RegExp(`^[A-Za-z0-9_-]{${A.session_id_min_chars},${A.session_id_max_chars}}$`);
const base = {
  consent: z.literal(ANALYTICS_CONSENT).describe(`must be "${ANALYTICS_CONSENT}": the visitor chose Allow on the page's analytics banner; a body without it is refused and nothing is stored`),
  session: z.string().regex(SESSION_PATTERN).describe(`the tab session: ${A.session_id_min_chars}-${A.session_id_max_chars} characters of [A-Za-z0-9_-], random per browser tab, never a key or an account`),
};

export const AnalyticsEventInputSchema = z.discriminatedUnion('kind', [
  z.strictObject({ ...base, kind: z.literal('page_view').describe('a page of the public app was opened'), page: z.enum(ANALYTICS_PAGES).describe('which page') }),
  z.strictObject({ ...base, kind: z.literal('valuation_opened').describe('the evidence panel opened on a valuation'), outcome: z.enum(VALUATION_OUTCOMES).describe('the display-ladder outcome the panel showed') }),
  z.strictObject({ ...base, kind: z.literal('tool_used').describe('a tool of the service was used from the app'), tool: z.enum(TOOL_NAMES).describe('the MCP tool name') }),
  z.strictObject({ ...base, kind: z.literal('map_filter_changed').describe('a map chooser was changed'), filter: z.enum(MAP_FILTERS).describe('which chooser (its value is not recorded)') }),
]).describe('one coarse analytics event; any other kind or field is refused with validation_failed');
export type AnalyticsEventInput = z.output<typeof AnalyticsEventInputSchema>;
export type AnalyticsKind = (typeof ANALYTICS_KINDS)[number];

/** POST /api/analytics/events answers 204 with no body, whether it stored the event or honoured DNT / GPC. */
export const AnalyticsEventAckSchema = z.null().describe('no content');

export const AppFunnelSchema = z.object({
  events: z.number().int().nonnegative().describe('consented events stored in the window'),
  sessions: z.number().int().nonnegative().describe('distinct tab sessions that sent any event in the window'),
  by_kind: z.record(z.enum(ANALYTICS_KINDS), z.number().int().nonnegative()).describe('events per kind in the window'),
  by_day: z.array(z.object({
    date: z.string().describe('UTC date YYYY-MM-DD'),
    sessions: z.number().int().nonnegative().describe('distinct tab sessions that day'),
    by_kind: z.record(z.enum(ANALYTICS_KINDS), z.number().int().nonnegative()).describe('events per kind that day'),
  })).describe('days with at least one event, oldest first'),
  funnel: z.array(z.object({
    step: z.enum(FUNNEL_STEPS).describe('funnel step'),
    sessions: z.number().int().nonnegative().describe('sessions that reached this step and every step before it, in the window'),
  })).describe(`sessions through ${FUNNEL_STEPS.join(' → ')}`),
  valuation_outcomes: z.record(z.enum(VALUATION_OUTCOMES), z.number().int().nonnegative()).describe('valuation_opened events per ladder outcome'),
  map_filters: z.record(z.enum(MAP_FILTERS), z.number().int().nonnegative()).describe('map_filter_changed events per chooser'),
  tools: z.array(z.object({ tool: z.string().describe('MCP tool name'), events: z.number().int().nonnegative().describe('tool_used events') })).describe('tool_used events per tool, most used first'),
}).describe(`the public app's consent-only (${ANALYTICS_CONSENT}) events in the window, kept ${A.event_retention_days} days`);
export type AppFunnel = z.infer<typeof AppFunnelSchema>;
