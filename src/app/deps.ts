// Binds OperationDeps (what operation handlers may call) to the domain modules at start-up: store, event log, user
// state, alert profiles, audit, generated documents, and the valuation engine where it has landed.
import { createProfile, openAlertStore, parseProfileInput, requiredScopes, type AlertStore } from '../alerts/index.js';
import { openAudit, type Audit } from '../auth/audit.js';
import { actorOf, authorize } from '../auth/authorize.js';
import { openKeyStore, type KeyStore } from '../auth/keys.js';
import { createLimiter, type Limiter } from '../auth/limiter.js';
import type { EngineDeps, OperationDeps } from '../contracts/operation-deps.js';
import { DISCLOSURE } from '../contracts/valuation.js';
import { AppError } from '../errors/app-error.js';
import { getEventLog, type EventLog } from '../events/log.js';
import { openUserState, type UserState } from '../events/user-state.js';
import type { ServiceContext } from './context.js';
import { readHealth } from '../http/routes/health.route.js';
import { documentDeps } from './documents.js';
import { valuationEngine } from './engine.js';
import { listingsPayload, muniGeography, searchDeals, searchInventory, type ScoredListing } from '../listings/index.js';
import { LISTINGS_RUN } from '../registry/groups/listings.js';
import { DOORS } from '../registry/groups/doors.js';
import * as O from '../contracts/tools.js';
import { getTractReport, marketPulse, tractListWithSignals } from '../pulse/index.js';
import { refusalAnswer, resolveSubject } from './underwrite-gate.js';

/** The per-process services both doors share: ONE limiter, one key store, one audit, one event log. */
export type DoorServices = { keys: KeyStore; limiter: Limiter; audit: Audit; events: EventLog; userState: UserState; alerts: AlertStore };

export function openDoorServices(svc: ServiceContext): DoorServices {
  const env = svc.store.env;
  const nowMs = (): number => svc.now().getTime();
  const events = getEventLog(env, { now: nowMs });
  return {
    keys: openKeyStore(env, { now: nowMs }),
    limiter: svc.limiter ?? createLimiter({ now: nowMs }),
    audit: openAudit(env, { now: nowMs, onError: (e) => svc.log.error('audit write failed', e) }),
    events,
    userState: openUserState(env, { now: nowMs, events }),
    alerts: openAlertStore(env),
  };
}

const ENGINE_OWNERS: Record<keyof EngineDeps, string> = {
  underwriteRest: 'valuation engine (src/valuation/value.ts) and underwriting',
  deepUnderwrite: 'valuation engine (src/valuation/value.ts) and underwriting',
  underwriteAlias: 'valuation engine (src/valuation/value.ts) and underwriting',
  property: 'valuation engine (src/valuation/value.ts)',
  comps: 'valuation engine getComps (src/valuation/value.ts)',
  marketPulse: 'market pulse (src/pulse)',
  riskReport: 'risk report (src/risk)',
  modelRegistry: 'model registry (src/registry, valuation)',
  scorecard: 'metrics scorecard (src/valuation/metrics)',
};

/** Each engine function the service context does not bind answers 501 not_implemented, naming what is missing. */
export function engineDeps(bound: Partial<EngineDeps> = {}): EngineDeps {
  const out = {} as Record<keyof EngineDeps, unknown>;
  for (const name of Object.keys(ENGINE_OWNERS) as Array<keyof EngineDeps>) {
    out[name] = bound[name] ?? (async () => {
      throw new AppError('not_implemented', `${name} is not available in this build: ${ENGINE_OWNERS[name]} is not wired into this service`);
    });
  }
  return out as EngineDeps;
}

export function buildOperationDeps(svc: ServiceContext, doors: DoorServices): OperationDeps {
  const pulse: Partial<EngineDeps> = { marketPulse: async (i) => O.MarketPulseOutputSchema.parse(marketPulse(svc.store, i.metro)) };
  const engine = engineDeps({ ...pulse, ...(svc.valuation ? valuationEngine(svc.valuation, svc.store) : {}), ...svc.engine });
  const listings = (): ScoredListing[] => svc.store.getListings() as ScoredListing[];
  return {
    now: svc.now,
    health: () => readHealth(svc),
    // With the pulse signals filled, as the dedicated cached route (routes/tracts.route.ts) serves it.
    tractList: () => tractListWithSignals(svc.store),
    // The listings domain's own payloads, checked against the published contract where they cross the door.
    publicListings: async () => O.ListingsOutputSchema.parse(listingsPayload(svc.store, svc.now())),
    tractReport: async (geoid) => O.TractReportOutputSchema.parse(getTractReport(svc.store, geoid)),
    searchInventory: async (i) => O.InventorySearchOutputSchema.parse(searchInventory(listings(), i, muniGeography(svc.store.tractList().tracts), svc.now())),
    searchDeals: async (i) => O.SearchDealsOutputSchema.parse({
      ...searchDeals(listings(), i, svc.now()),
      min_score_applied: i.min_score ?? LISTINGS_RUN.v.search_deals_top_quartile,
      // The pulse domain's ranking (the store's bare tract list carries no scores), cut to the search_deals count.
      top_tracts: marketPulse(svc.store).top_tracts[i.strategy].slice(0, DOORS.v.top_tracts_count),
      deprecated: true as const,
      replacement: 'search_investment_inventory' as const,
    }),
    underwriteRest: async (i) => engine.underwriteRest(i, { units: i.units, priceUsd: i.price, listingId: null }),
    deepUnderwrite: async (i) => {
      const g = resolveSubject(listings(), i, false);
      return g.ok ? engine.deepUnderwrite(i, g.subject) : refusalAnswer(g.refusal, i.strategy, { ...i }, svc.now());
    },
    underwriteAlias: async (i) => {
      const g = resolveSubject(listings(), i, true);
      return g.ok ? engine.underwriteAlias(i, g.subject) : refusalAnswer(g.refusal, i.strategy, { ...i }, svc.now());
    },
    property: async (i) => {
      const g = resolveSubject(listings(), i, false);
      // Without units or a property type the valuation cannot pick a segment: a refusal, as on the underwrite tools.
      if (!g.ok && i.prop_type === undefined) return { property: { ...i }, investor: { valuation: null }, refusal: g.refusal, disclosure: DISCLOSURE };
      return engine.property(i, g.ok ? g.subject : null);
    },
    writeState: async (tool, input, caller) => {
      const actor = actorOf(caller);
      const record =
        tool === 'save_favorite_property' ? await doors.userState.saveFavorite(input, actor)
        : tool === 'update_underwriting_preset' ? await doors.userState.upsertPreset(input, actor)
        : await doors.userState.addNote(input, actor);
      return { ok: true, record: record as unknown as Record<string, unknown> };
    },
    createProfile: async (input, caller) => {
      for (const scope of requiredScopes(parseProfileInput(input))) {
        const refusal = authorize(caller, scope);
        if (refusal) throw refusal;
      }
      const profile = await createProfile(doors.alerts, input, { ownerId: actorOf(caller), allowPrivate: svc.config.allowPrivateWebhooks, now: svc.now() });
      const rec = await doors.events.appendEvent({ kind: 'strategy_profile_created', payload: profile, actor: actorOf(caller) });
      return { ok: true, event_id: rec.id, profile: profile as unknown as Record<string, unknown> };
    },
    appendEvent: (kind, payload, caller) => doors.events.appendEvent({ kind, payload, actor: actorOf(caller) }),
    analytics: (days) => doors.audit.analytics(days, svc.now().getTime()),
    documents: documentDeps(),
    engine,
  };
}
