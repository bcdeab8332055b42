// The map's consent-only analytics (issue 16 item 4): a small banner asks once (Allow / No thanks) and the choice is
// kept in this browser (localStorage). Only after Allow does the page send coarse events to POST
// /api/analytics/events — page_view, valuation_opened (the ladder outcome) and map_filter_changed (which chooser) —
// each with the analytics-v1 consent and a random per-tab session id; never a key, position or text. A browser that
// sends Do-Not-Track or Global Privacy Control gets no banner and sends nothing (the service ignores such requests too).
import type { AnalyticsEventInput } from '../../contracts/analytics.js';

type Distribute<T> = T extends unknown ? Omit<T, 'consent' | 'session'> : never;
/** An event as the page composes it; consent and session are added when it is sent. */
export type AppEvent = Distribute<AnalyticsEventInput>;
export type Analytics = { send(event: AppEvent): void };

const CHOICE_KEY = 'avm.analytics.choice';
const SESSION_KEY = 'avm.analytics.session';
const CONSENT: AnalyticsEventInput['consent'] = 'analytics-v1';
const DECLINED = 'declined';

/** DNT or GPC: `navigator.doNotTrack === '1'`, or `navigator.globalPrivacyControl` (Sec-GPC's script form). */
function browserOptsOut(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.doNotTrack === '1' || nav.globalPrivacyControl === true;
}

/** 16 random base64url characters, drawn once per tab (sessionStorage is per tab). */
function tabSession(): string {
  const kept = sessionStorage.getItem(SESSION_KEY);
  if (kept) return kept;
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  const id = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_');
  sessionStorage.setItem(SESSION_KEY, id);
  return id;
}

function post(event: AppEvent): void {
  const body = JSON.stringify({ consent: CONSENT, session: tabSession(), ...event });
  // keepalive: an event sent as the page closes still arrives; a failed send is dropped, never retried or logged
  void fetch('/api/analytics/events', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, keepalive: true, credentials: 'omit' }).catch(() => undefined);
}

function banner(onChoice: (allow: boolean) => void): HTMLElement {
  const box = document.createElement('section');
  box.id = 'analytics-consent';
  box.setAttribute('aria-label', 'analytics consent');
  const p = document.createElement('p');
  p.textContent = 'May this map count anonymous usage (pages opened, valuations opened, filters changed)? No key, address, position or IP is kept.';
  const button = (text: string, allow: boolean): HTMLButtonElement => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.addEventListener('click', () => {
      box.remove();
      onChoice(allow);
    });
    return b;
  };
  box.append(p, button('Allow', true), button('No thanks', false));
  return box;
}

/** Asks once (in `root`) unless the choice is stored or the browser opts out; `send` is a no-op until Allow. */
export function startAnalytics(root: HTMLElement, firstEvent: AppEvent): Analytics {
  if (browserOptsOut()) return { send: () => undefined };
  let allowed = localStorage.getItem(CHOICE_KEY) === CONSENT;
  if (allowed) post(firstEvent);
  else if (localStorage.getItem(CHOICE_KEY) !== DECLINED) {
    root.append(banner((allow) => {
      localStorage.setItem(CHOICE_KEY, allow ? CONSENT : DECLINED);
      allowed = allow;
      if (allow) post(firstEvent); // the page view the visitor just allowed counting
    }));
  }
  return { send: (event) => void (allowed && post(event)) };
}
