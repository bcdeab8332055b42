// One listings run: read the feed from the store, dedupe by address, keep at most 200 active, value and score them in
// batches, rank per-strategy percentiles across the run, store the rows durably, write last_run, then hand the
// scored inventory to alerts. Feed rows not kept are stored with status `duplicate` or `overflow` (never active).
import { randomUUID } from 'node:crypto';
import { afterListingsRun, type DeliveryContext } from '../alerts/index.js';
import { LISTINGS_RUN } from '../registry/groups/listings.js';
import { MODEL_VERSIONS } from '../registry/versions.js';
import { rankToPercentiles } from '../scoring/percentile.js';
import { utcDay } from '../store/days.js';
import { LAST_RUN_META_KEY, type LastRun } from '../store/store-status.js';
import type { Store } from '../store/store.js';
import type { ListingRecord } from '../ingest/loaders/listings.js';
import { addressKey, capActive, dedupeByAddress } from './dedupe.js';
import { alertRowOf, buildScoredListing, type ScoredListing } from './rows.js';
import type { ScoreSubject } from '../scoring/score-subject.js';
import { scoreInBatches, type BatchScorer } from '../scoring/scorer.js';

/** Meta key: listing_id → ISO time it was first seen by a run (new_count; search_deals since_hours). */
export const FIRST_SEEN_META_KEY = 'listings:first_seen';

export type RunKind = 'daily' | 'manual';

export type ListingsRunDeps = {
  store: Store;
  scorer: BatchScorer;
  kind: RunKind;
  now?: () => Date;
  /** Alerts delivery; omit to skip the alerts hook (e.g. a dry bench run). */
  alerts?: DeliveryContext | null;
  batchSize?: number;
};

export type ListingsRunResult = {
  run_id: string;
  last_run: LastRun;
  feed_rows: number;
  duplicates: number;
  overflow: number;
  active: number;
  scored: number;
  unscored: number;
  errors: number;
  wall_ms: number;
  rows: ScoredListing[];
  alerts: Awaited<ReturnType<typeof afterListingsRun>> | null;
};

type Feed = ListingRecord & { feed_status?: string };
const feedStatus = (l: Feed): string => l.feed_status ?? l.status;

/**
 * A listing is valued by its id, as a door asked about it would be: subject resolution reads the listing record (and
 * its parcel), so every fact carries its true source (`listing`, `parcel_record`), never `caller`. A run names its
 * as-of date (`asOf`) in every subject: one date for the whole run.
 */
export function subjectOfListing(l: ListingRecord, asOf?: string): ScoreSubject {
  return { id: l.listing_id, input: { propertyId: l.listing_id, asOf } };
}

function inactiveRow(l: Feed, status: 'duplicate' | 'overflow', duplicateOf: string | null): Feed & { status: string; duplicate_of: string | null } {
  return { ...l, feed_status: feedStatus(l), status, duplicate_of: duplicateOf };
}

export async function runListingsOnce(deps: ListingsRunDeps): Promise<ListingsRunResult> {
  const now = deps.now ?? (() => new Date());
  const t0 = performance.now();
  const runId = randomUUID();
  // Every listing is valued as of the date the run starts, also when its batches run past a UTC midnight.
  const asOf = utcDay(now());
  const feed = deps.store.getListings() as Feed[];
  const activeFeed = feed.filter((l) => feedStatus(l) === 'active');
  const { kept, dropped } = dedupeByAddress(activeFeed);
  const { active, overflow } = capActive(kept, LISTINGS_RUN.v.max_active_listings);
  const scores = await scoreInBatches(deps.scorer, active.map((l) => subjectOfListing(l, asOf)), deps.batchSize ?? LISTINGS_RUN.v.listing_batch_size);
  const pct = rankToPercentiles(scores.map((s) => ({ id: s.id, raw: s.raw })));
  const scoredAt = now().toISOString();
  const firstSeen = { ...(deps.store.getMeta<Record<string, string>>(FIRST_SEEN_META_KEY) ?? {}) };
  let newCount = 0;
  const rows = active.map((l, i) => {
    if (firstSeen[l.listing_id] === undefined) {
      firstSeen[l.listing_id] = scoredAt;
      newCount++;
    }
    return buildScoredListing({ listing: l, score: scores[i], percentiles: pct[i].percentiles, runId, runKind: deps.kind, scoredAt, firstSeenAt: firstSeen[l.listing_id], dedupeKey: addressKey(l) });
  });
  const inactive = [
    ...dropped.map((d) => inactiveRow(d.listing, 'duplicate', d.duplicateOf)),
    ...overflow.map((l) => inactiveRow(l, 'overflow', null)),
  ];
  await deps.store.putListings([...rows, ...inactive]);
  await deps.store.putMeta(FIRST_SEEN_META_KEY, firstSeen);
  const lastRun: LastRun = { kind: deps.kind, finished: now().toISOString(), found: activeFeed.length, new_count: newCount };
  await deps.store.putMeta(LAST_RUN_META_KEY, lastRun);
  const alertRows = rows.map(alertRowOf).filter((r): r is NonNullable<typeof r> => r !== null);
  const alerts = deps.alerts ? await afterListingsRun(deps.alerts, { rows: alertRows, asOf: new Date(scoredAt), modelVersions: MODEL_VERSIONS, now: now() }) : null;
  const scored = rows.filter((r) => r.deal_score !== null).length;
  return {
    run_id: runId, last_run: lastRun, feed_rows: feed.length, duplicates: dropped.length, overflow: overflow.length, active: rows.length,
    scored, unscored: rows.length - scored, errors: scores.filter((s) => s.error !== null).length, wall_ms: performance.now() - t0, rows, alerts,
  };
}
