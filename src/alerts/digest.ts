// After a listings run: match every active profile, dedupe on profile + listing + price bucket, and write at most one
// digest per profile per UTC day into the outbox. Outbox records, dedupe marks and the day mark commit in ONE
// transaction, so a crash leaves either all of them or none (no lost alert, no alert marked sent that was not queued).
import { ALERTS } from '../registry/groups/alerts.js';
import { utcDay } from '../store/days.js';
import { isNewForProfile, mismatchReason, priceBucket, rankForStrategy, type SeenState } from './matcher.js';
import { newOutboxRecord, putIfAbsentInTxn, type OutboxRecord } from './outbox.js';
import { buildAlertPayload, matchFromRow, type AlertPayload, type ModelVersions, type ScoredRow } from './payload.js';
import { listActiveProfiles, type StoredProfile } from './profile.js';
import { flushed, KEY_PREFIX, type AlertStore } from './store.js';
import { telegramBody } from './telegram.js';

export type DigestRun = {
  /** The whole current scored inventory (or just new and changed rows): dedupe makes re-passing rows harmless. */
  rows: ScoredRow[];
  /** When the rows were scored (payload `as_of`). */
  asOf: Date;
  /** Versions of the run; rows scored by another version are stale and never alert. */
  modelVersions: ModelVersions;
  /** Wall clock of the run; its UTC calendar day is the digest day. */
  now: Date;
  /** Defaults to every active stored profile. */
  profiles?: StoredProfile[];
};

export type ProfileOutcome =
  | { profile_id: string; status: 'queued'; alert_ids: string[]; match_count: number; held_back: number }
  | { profile_id: string; status: 'no_channel' | 'already_pushed_today' | 'no_new_matches'; candidates: number };

export type DigestResult = { day: string; stale_rows: number; profiles: ProfileOutcome[]; alert_ids: string[] };

const sameVersions = (a: ModelVersions, b: ModelVersions): boolean => a.model === b.model && a.underwrite === b.underwrite && a.serving === b.serving;
// Alert state is keyed by the profile's ref, never its id: two owners may each hold a profile of one id.
const seenKey = (profileRef: string, listingId: string): string => `${KEY_PREFIX.seen}${profileRef}:${listingId}`;

/** The outbox records of one digest: one per enabled channel, idempotency key = profile ref + channel + UTC day. */
function digestRecords(p: StoredProfile, payload: AlertPayload, day: string, now: Date): OutboxRecord[] {
  const out: OutboxRecord[] = [];
  if (p.channels.webhook) {
    out.push(newOutboxRecord({ idempotencyKey: `${p.ref}:webhook:${day}`, profileId: p.ref, channel: 'webhook', body: JSON.stringify(payload), now }));
  }
  if (p.channels.telegram && p.criteria.telegram_chat_id) {
    const body = telegramBody(p.criteria.telegram_chat_id, payload);
    out.push(newOutboxRecord({ idempotencyKey: `${p.ref}:telegram:${day}`, profileId: p.ref, channel: 'telegram', body, now }));
  }
  return out;
}

/** What one profile's digest writes: outbox records, dedupe marks and the day mark (all or nothing). */
export type DigestWrites = { records: OutboxRecord[]; seen: Array<[listingId: string, state: SeenState]>; markDay: boolean };

/**
 * Decides one profile's digest from its dedupe marks and last push day (read by the caller inside its transaction);
 * the same rule for the LMDB store and the PostgreSQL tables (digest-pg.ts).
 */
export function decideDigest(p: StoredProfile, rows: ScoredRow[], run: DigestRun, day: string, seenOf: (listingId: string) => SeenState | undefined, lastDay: string | undefined): { outcome: ProfileOutcome; writes: DigestWrites } {
  const none = { records: [], seen: [], markDay: false };
  const candidates = rows.filter((r) => mismatchReason(r, p) === null && isNewForProfile(seenOf(r.listing_id), r.price));
  const hasChannel = Boolean(p.channels.webhook) || (p.channels.telegram === true && Boolean(p.criteria.telegram_chat_id));
  if (!hasChannel) return { outcome: { profile_id: p.ref, status: 'no_channel', candidates: candidates.length }, writes: none };
  if (lastDay === day) return { outcome: { profile_id: p.ref, status: 'already_pushed_today', candidates: candidates.length }, writes: none };
  if (candidates.length === 0) return { outcome: { profile_id: p.ref, status: 'no_new_matches', candidates: 0 }, writes: none };
  // Matches past the top N are not marked seen: they stay eligible for a later day's digest.
  const top = rankForStrategy(candidates, p.strategy).slice(0, ALERTS.v.digest_top_n);
  const payload = buildAlertPayload({ profile: p, strategy: p.strategy, asOf: run.asOf, modelVersions: run.modelVersions, matches: top.map(matchFromRow) });
  const records = digestRecords(p, payload, day, run.now);
  const seen = top.map((r): [string, SeenState] => {
    const prev = seenOf(r.listing_id);
    return [r.listing_id, { buckets: [...(prev?.buckets ?? []), priceBucket(r.price)], last_price_usd: r.price, last_alerted_at: run.now.toISOString() }];
  });
  // The day mark enforces ALERTS.v.digests_per_day (1).
  const outcome: ProfileOutcome = { profile_id: p.ref, status: 'queued', alert_ids: records.map((r) => r.id), match_count: top.length, held_back: candidates.length - top.length };
  return { outcome, writes: { records, seen, markDay: true } };
}

/** Runs inside the LMDB transaction: reads, decides, writes records + dedupe marks + the day mark for one profile. */
function digestOneProfile(store: AlertStore, p: StoredProfile, rows: ScoredRow[], run: DigestRun, day: string): ProfileOutcome {
  const seenOf = (lid: string): SeenState | undefined => store.outbox.get(seenKey(p.ref, lid)) as SeenState | undefined;
  const { outcome, writes } = decideDigest(p, rows, run, day, seenOf, store.outbox.get(KEY_PREFIX.digest + p.ref) as string | undefined);
  for (const rec of writes.records) putIfAbsentInTxn(store, rec);
  for (const [lid, seen] of writes.seen) store.outbox.put(seenKey(p.ref, lid), seen);
  if (writes.markDay) store.outbox.put(KEY_PREFIX.digest + p.ref, day);
  return outcome;
}

/** The rows a digest may alert on: those scored by the run's versions (the others are stale). */
export const freshRows = (run: DigestRun): ScoredRow[] => run.rows.filter((r) => sameVersions(r.model_versions, run.modelVersions));

/** Matches, dedupes and queues digests durably; resolves after the outbox is fsynced. Delivery is a separate step. */
export async function runDigest(store: AlertStore, run: DigestRun): Promise<DigestResult> {
  const day = utcDay(run.now);
  const fresh = freshRows(run);
  const profiles = run.profiles ?? (await listActiveProfiles(store));
  const outcomes = await store.outbox.transaction(() => profiles.map((p) => digestOneProfile(store, p, fresh, run, day)));
  await flushed(store);
  const alertIds = outcomes.flatMap((o) => (o.status === 'queued' ? o.alert_ids : []));
  return { day, stale_rows: run.rows.length - fresh.length, profiles: outcomes, alert_ids: alertIds };
}
