// The read operations that do not value: health, tracts, listings, inventory search, tract report, pulse, the model
// registry and its page (GET /model), the scorecard and the generated documents. Each reads the
// store or a domain module and answers its contract output (a Reply where the operation sets its own status, headers
// or caching).
import type { Health } from '../contracts/health.js';
import type * as I from '../contracts/inputs.js';
import { Reply } from '../contracts/reply.js';
import * as O from '../contracts/tools.js';
import type { TractList } from '../contracts/tracts.js';
import { geographyResolver, listingsPayload, searchDeals, searchInventory, type ScoredListing } from '../listings/index.js';
import { DOORS } from '../registry/groups/doors.js';
import { LISTINGS_RUN } from '../registry/groups/listings.js';
import { modelRegistryDocument, openModelRegistry, scorecardDocument } from '../registry/model-registry.js';
import { MODEL_VERSION } from '../registry/versions.js';
import { getTractReport, marketPulse, tractListWithSignals } from '../pulse/index.js';
import { listHedonicModels, loadHedonicModel } from '../valuation/hedonic/store.js';
import type { ServiceContext } from './context.js';
import { documentsOf } from './documents.js';
import { MODEL_PAGE_HEADERS, modelPage } from './model-page.js';

/** GET /api/tracts/chicago is cached for an hour (spec Limits), and rebuilt at once when the snapshot changes. */
export const TRACT_CACHE_SECONDS = 3600;

/** ok only when both storage bindings answer (the LMDB environment and the current sales snapshot). */
export function readHealth(svc: ServiceContext): Health {
  const lmdb = svc.store.checkEnv();
  const snapshot = svc.store.checkSnapshot();
  const listings = svc.store.listingsSummary(MODEL_VERSION);
  return {
    ok: lmdb.ok && snapshot.ok,
    bindings: { lmdb, sales_snapshot: snapshot },
    last_run: svc.store.lastRun(),
    active_listings: listings.active,
    stale_model_rows: listings.staleModelRows,
    model_version: MODEL_VERSION,
    corpus_vintage: svc.store.corpusVintage(),
    ...(svc.snapshotFollower ? { shared_snapshot: svc.snapshotFollower.status() } : {}),
  };
}

export function readOperations(svc: ServiceContext) {
  const registry = openModelRegistry(svc.store);
  const docs = documentsOf();
  const listings = (): ScoredListing[] => svc.store.getListings() as ScoredListing[];
  let tracts: { body: TractList; builtAtMs: number; snapshotId: string | null } | null = null;
  return {
    health: async () => {
      const health = readHealth(svc);
      return new Reply(health, health.ok ? 200 : 503, { 'Cache-Control': 'no-store' });
    },
    tracts: async () => {
      const nowMs = svc.now().getTime();
      const snapshotId = svc.store.currentSnapshotId();
      if (!tracts || nowMs - tracts.builtAtMs >= TRACT_CACHE_SECONDS * 1000 || tracts.snapshotId !== snapshotId) {
        tracts = { body: tractListWithSignals(svc.store), builtAtMs: nowMs, snapshotId };
      }
      const ageSec = Math.floor((nowMs - tracts.builtAtMs) / 1000);
      return new Reply(tracts.body, 200, { 'Cache-Control': `public, max-age=${Math.max(0, TRACT_CACHE_SECONDS - ageSec)}` });
    },
    // The listings domain's own payloads, checked against the published contract where they cross the door.
    listings: async () => O.ListingsOutputSchema.parse(listingsPayload(svc.store, svc.now())),
    get_tract_report: async (i: { geoid: string }) => O.TractReportOutputSchema.parse(getTractReport(svc.store, i.geoid)),
    market_pulse: async (i: { metro: 'chicago' }) => O.MarketPulseOutputSchema.parse(marketPulse(svc.store, i.metro)),
    search_investment_inventory: async (i: I.InventorySearchInput) =>
      O.InventorySearchOutputSchema.parse(searchInventory(listings(), i, geographyResolver(svc.store.tractList().tracts), svc.now())),
    search_deals: async (i: I.SearchDealsInput) => O.SearchDealsOutputSchema.parse({
      ...searchDeals(listings(), i, svc.now()),
      min_score_applied: i.min_score ?? LISTINGS_RUN.v.search_deals_top_quartile,
      // The pulse domain's ranking (the store's bare tract list carries no scores), cut to the search_deals count.
      top_tracts: marketPulse(svc.store).top_tracts[i.strategy].slice(0, DOORS.v.top_tracts_count),
      deprecated: true as const,
      replacement: 'search_investment_inventory' as const,
    }),
    model_registry: async () => {
      const current = loadHedonicModel(svc.store.env);
      return modelRegistryDocument(registry, { current: current?.version ?? null, models: listHedonicModels(svc.store.env) });
    },
    // HTML, REST only; 200 with a page saying so before any calibration (as /api/model-registry answers a null champion).
    model_page: async () => new Reply(modelPage(svc.store, svc.now()), 200, MODEL_PAGE_HEADERS),
    scorecard: async () => scorecardDocument(registry),
    openapi: async () => docs.openapi(),
    mcp_manifest: async () => docs.manifest(),
    mcp_tools: async () => docs.manifest(),
    spec_valuation_contract: async () => docs.valuationContract(),
    spec_scoring_contract: async () => docs.scoringContract(),
    spec_constants_registry: async () => docs.constantsRegistry(),
    spec_error_taxonomy: async () => docs.errorTaxonomy(),
  };
}
