// The per-process services both doors share, opened once at start-up: ONE rate limiter, one key store, one audit,
// one event log, user state and alert profiles (the state ones from the backend: LMDB or PostgreSQL, backendOf).
import type { AlertStore } from '../alerts/index.js';
import type { Audit } from '../auth/audit.js';
import { formTokens, type FormTokens } from '../auth/form-token.js';
import { openAppEvents, type AppEvents } from '../analytics/app-events.js';
import type { KeyStore } from '../auth/keys.js';
import { createLimiter, type RateLimiter } from '../auth/limiter.js';
import type { EventLog } from '../events/log.js';
import { userStateOver, type UserState } from '../events/user-state.js';
import { lmdbStateBackend, type StateBackend } from '../store/backend.js';
import type { ServiceContext } from './context.js';

/** `keysPageTokens`: the form tokens of the owner's keys page (GET and POST /keys share them). */
export type DoorServices = { keys: KeyStore; limiter: RateLimiter; audit: Audit; events: EventLog; userState: UserState; alerts: AlertStore; keysPageTokens: FormTokens; appEvents: AppEvents; backend: StateBackend };

/** The service's state backend: the one the server opened (svc.backend), else the LMDB environment's, opened once. */
export function backendOf(svc: ServiceContext): StateBackend {
  svc.backend ??= lmdbStateBackend(svc.store.env, { now: () => svc.now().getTime(), onError: (e) => svc.log.error('audit write failed', e) });
  return svc.backend;
}

export function openDoorServices(svc: ServiceContext): DoorServices {
  const env = svc.store.env;
  const nowMs = (): number => svc.now().getTime();
  const backend = backendOf(svc);
  return {
    keys: backend.keys,
    limiter: svc.limiter ?? createLimiter({ now: nowMs, anonLimit: svc.config.anonRateLimit ?? undefined }),
    audit: backend.audit,
    events: backend.events,
    userState: userStateOver(backend.owned, { now: nowMs }),
    alerts: backend.alerts,
    keysPageTokens: formTokens('keys-page', backend.formKey ?? undefined),
    appEvents: openAppEvents(env, { now: nowMs }),
    backend,
  };
}
