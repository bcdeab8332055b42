// The per-process services both doors share, opened once at start-up: ONE rate limiter, one key store, one audit,
// one event log, user state and alert profiles.
import { openAlertStore, type AlertStore } from '../alerts/index.js';
import { openAudit, type Audit } from '../auth/audit.js';
import { formTokens, type FormTokens } from '../auth/form-token.js';
import { openAppEvents, type AppEvents } from '../analytics/app-events.js';
import { openKeyStore, type KeyStore } from '../auth/keys.js';
import { createLimiter, type RateLimiter } from '../auth/limiter.js';
import { getEventLog, type EventLog } from '../events/log.js';
import { openUserState, type UserState } from '../events/user-state.js';
import type { ServiceContext } from './context.js';

/** `keysPageTokens`: the form tokens of the owner's keys page (GET and POST /keys share them). */
export type DoorServices = { keys: KeyStore; limiter: RateLimiter; audit: Audit; events: EventLog; userState: UserState; alerts: AlertStore; keysPageTokens: FormTokens; appEvents: AppEvents };

export function openDoorServices(svc: ServiceContext): DoorServices {
  const env = svc.store.env;
  const nowMs = (): number => svc.now().getTime();
  const events = getEventLog(env, { now: nowMs });
  return {
    keys: openKeyStore(env, { now: nowMs }),
    limiter: svc.limiter ?? createLimiter({ now: nowMs, anonLimit: svc.config.anonRateLimit ?? undefined }),
    audit: openAudit(env, { now: nowMs, onError: (e) => svc.log.error('audit write failed', e) }),
    events,
    userState: openUserState(env, { now: nowMs, events }),
    alerts: openAlertStore(env),
    keysPageTokens: formTokens('keys-page'),
    appEvents: openAppEvents(env, { now: nowMs }),
  };
}
