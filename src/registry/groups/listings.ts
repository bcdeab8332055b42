// Listings run and inventory constants: schedule, inventory cap, batch sizes, search paging.
import { c, defineGroup } from '../define.js';

const SPEC = 'service-spec.md';

export const LISTINGS_RUN = defineGroup({
  name: 'listings',
  version: '1.1.0',
  owner: 'listings',
  entries: {
    daily_run_hour_utc: c(13, 'hour of day, UTC', 'listings refresh daily at 13:00 UTC', `${SPEC}, What the service does (scope)`),
    max_active_listings: c(200, 'listings', 'at most 200 active listings, deduped by address', `${SPEC}, Limits (Listings)`),
    listing_batch_size: c(25, 'subjects per worker task', 'one task per batch: 200 listings make 8 tasks, enough to keep 2 workers busy with little queueing', 'convention; bench/listings-run.bench.ts'),
    score_all_batch_size: c(400, 'subjects per worker task', 'bulk scoring: large batches amortize the structured-clone hop; small enough for a smooth progress bar', 'convention; bench/score-all.bench.ts'),
    worker_warm_subjects: c(16, 'listings', 'each worker scores this many listings at start-up so the first real run pays no lazy-initialisation cost', 'convention; bench/listings-run.bench.ts first_run_ms'),
    inventory_page_default: c(25, 'rows', 'search_investment_inventory default page size', `${SPEC}, Limits (Inventory page size)`),
    inventory_page_max: c(100, 'rows', 'search_investment_inventory maximum page size', `${SPEC}, Limits (Inventory page size)`),
    search_deals_limit_default: c(10, 'rows', 'search_deals default limit', `${SPEC}, Limits (search_deals limit default)`),
    search_deals_top_quartile: c(75, 'percentile', 'search_deals: an omitted min_score means the live top-quartile cutoff (75th percentile)', `${SPEC}, Deprecated aliases (search_deals)`),
    last_run_stale_hours: c(24, 'hours', 'when last_run is older than about 24 hours the daily run failed', `${SPEC}, What the service does (scope)`),
  },
});
