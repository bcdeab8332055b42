import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDigest, type DigestRun } from '../../src/alerts/digest.js';
import { isNewForProfile, mismatchReason, priceBucket, rankForStrategy } from '../../src/alerts/matcher.js';
import { listAlerts } from '../../src/alerts/outbox.js';
import { AlertPayloadSchema, type AlertPayload, type ScoredRow } from '../../src/alerts/payload.js';
import { createProfile, getProfile } from '../../src/alerts/profile.js';
import { openAlertStore } from '../../src/alerts/store.js';
import { ALERTS } from '../../src/registry/groups/alerts.js';
import { openEnv } from '../../src/store/env.js';
import { MODEL, profileBody, row, tempStore, type TempStore } from './support.js';

// Profile p1 (support.profileBody): brrrr, min_percentile 75, max_price 300,000, min_confidence 60, Chicago bbox.
const day = (d: number, hour = 13): Date => new Date(Date.UTC(2026, 10, 19 + d, hour, 5, 0)); // day 1 = 2026-11-20

describe('mismatchReason(row, profile)', () => {
  const p = { strategy: 'brrrr' as const, min_percentile: 75, max_price: 300_000, min_confidence: 60, bbox: [-87.94, 41.64, -87.52, 42.02] as [number, number, number, number], criteria: {} };
  it.each<[Partial<ScoredRow>, string | null]>([
    [{}, null],
    [{ point_actionable: false }, 'not_point_actionable'],
    [{ percentiles: { flip: 90, brrrr: null, hold: 90, house_hack: 90 } }, 'unscored_for_strategy'],
    [{ percentiles: { flip: 90, brrrr: 74.9, hold: 90, house_hack: 90 } }, 'below_min_percentile'],
    [{ percentiles: { flip: 0, brrrr: 75, hold: 0, house_hack: 0 } }, null], // bounds are inclusive
    [{ price: 300_001 }, 'above_max_price'],
    [{ price: 300_000 }, null],
    [{ confidence: 59 }, 'below_min_confidence'],
    [{ lon: -87.4 }, 'outside_bbox'],
    [{ lat: 42.1 }, 'outside_bbox'],
  ])('%o -> %s', (over, reason) => {
    expect(mismatchReason(row({ listing_id: 'X', ...over }), p)).toBe(reason);
  });
  it('applies criteria.zips', () => {
    expect(mismatchReason(row({ listing_id: 'X', zip: '60623' }), { ...p, criteria: { zips: ['60612'] } })).toBe('zip_not_in_criteria');
  });
});

describe('priceBucket(priceUsd) and isNewForProfile(seen, priceUsd)', () => {
  // floor(ln(p) / ln(1.025)): ln(200000) = 12.206073, / 0.0246926 = 494.32 -> 494; ln(190000) / 0.0246926 = 492.24 -> 492.
  it('buckets on a log scale 2.5% wide', () => {
    expect(ALERTS.v.price_bucket_frac).toBe(0.025);
    expect(priceBucket(200_000)).toBe(494);
    expect(priceBucket(190_000)).toBe(492);
    expect(priceBucket(198_000)).toBe(493); // crosses an edge though it moved only 1%
  });
  const seen = { buckets: [494], last_price_usd: 200_000, last_alerted_at: 'x' };
  it('re-alerts only on a move of at least one bucket width into a bucket not alerted before', () => {
    expect(isNewForProfile(undefined, 200_000)).toBe(true);
    expect(isNewForProfile(seen, 199_990)).toBe(false); // same bucket
    expect(isNewForProfile(seen, 198_000)).toBe(false); // new bucket but |ln(0.99)| = 0.01005 < 0.02469
    expect(isNewForProfile(seen, 195_000)).toBe(true); //  |ln(0.975)| = 0.02532 >= 0.02469
    expect(isNewForProfile({ ...seen, buckets: [494, 492], last_price_usd: 190_000 }, 200_000)).toBe(false); // back to an alerted bucket
  });
  it('ranks by strategy percentile, then lower price, then listing id', () => {
    const rows = [row({ listing_id: 'b', percentiles: { flip: 0, brrrr: 80, hold: 0, house_hack: 0 } }), row({ listing_id: 'a', percentiles: { flip: 0, brrrr: 80, hold: 0, house_hack: 0 } }), row({ listing_id: 'c', price: 150_000, percentiles: { flip: 0, brrrr: 80, hold: 0, house_hack: 0 } }), row({ listing_id: 'd', percentiles: { flip: 0, brrrr: 95, hold: 0, house_hack: 0 } })];
    expect(rankForStrategy(rows, 'brrrr').map((r) => r.listing_id)).toEqual(['d', 'c', 'a', 'b']);
  });
});

describe('runDigest(store, run) over several simulated days', () => {
  let t: TempStore;
  beforeEach(async () => {
    t = tempStore();
    await createProfile(t.store, profileBody('http://127.0.0.1:1/hook'), { ownerId: 'k1', allowPrivate: true });
  });
  afterEach(async () => {
    await t.close();
  });

  const pct = (brrrr: number): ScoredRow['percentiles'] => ({ flip: 50, brrrr, hold: 40, house_hack: 30 });
  const run = (now: Date, rows: ScoredRow[]): DigestRun => ({ rows, now, asOf: now, modelVersions: MODEL });
  const payloads = (): AlertPayload[] => listAlerts(t.store).filter((a) => a.channel === 'webhook').sort((a, b) => a.created_at.localeCompare(b.created_at)).map((a) => AlertPayloadSchema.parse(JSON.parse(a.body)));
  const lastMatches = (): Array<[string, number]> => payloads().at(-1)!.matches.map((m) => [m.listing_id, m.price]);

  it('pushes at most once per profile per UTC day, dedupes on listing + price bucket, and re-alerts on real moves', async () => {
    const A = row({ listing_id: 'A', price: 200_000, percentiles: pct(90) });
    const B = row({ listing_id: 'B', price: 150_000, percentiles: pct(85) });
    const noise = [
      row({ listing_id: 'C', point_actionable: false, percentiles: pct(99) }),
      row({ listing_id: 'D', lon: -87.3, percentiles: pct(99) }),
      row({ listing_id: 'E', price: 350_000, percentiles: pct(99) }),
      row({ listing_id: 'F', percentiles: pct(60) }),
    ];
    // Day 1: A and B match, best percentile first; the payload carries provenance.
    const d1 = await runDigest(t.store, run(day(1), [A, B, ...noise]));
    expect(d1.profiles).toEqual([expect.objectContaining({ status: 'queued', match_count: 2, held_back: 0 })]);
    expect(lastMatches()).toEqual([['A', 200_000], ['B', 150_000]]);
    expect(payloads()[0]).toMatchObject({ profile: { id: 'p1', name: 'West side BRRRR' }, strategy: 'brrrr', as_of: '2026-11-20T13:05:00.000Z', model_versions: MODEL });
    expect(payloads()[0].matches[0].score_snapshot).toEqual({ brrrr: 90, flip: 50, hold: 40, house_hack: 30, arv: 260_000, arv_method: 'renovated_comps', arv_confidence: 72 });

    // Day 1, a second run at 20:05 with a new match G: no second push today, and G is kept for tomorrow.
    const G = row({ listing_id: 'G', price: 120_000, percentiles: pct(80) });
    const d1b = await runDigest(t.store, run(day(1, 20), [A, B, G]));
    expect(d1b.profiles[0]).toMatchObject({ status: 'already_pushed_today', candidates: 1 });
    expect(listAlerts(t.store)).toHaveLength(1);

    // Day 2: A moved 1% (198,000: new bucket 493 but below one bucket width) -> not news; G goes out alone.
    await runDigest(t.store, run(day(2), [{ ...A, price: 198_000 }, B, G]));
    expect(lastMatches()).toEqual([['G', 120_000]]);

    // Day 3: A cut 5% to 190,000 (bucket 492) -> one alert for A at the new price.
    await runDigest(t.store, run(day(3), [{ ...A, price: 190_000 }, B, G]));
    expect(lastMatches()).toEqual([['A', 190_000]]);

    // Day 4: A back to 200,000 (bucket 494, alerted on day 1) -> nothing new.
    const d4 = await runDigest(t.store, run(day(4), [A, B, G]));
    expect(d4.profiles[0]).toMatchObject({ status: 'no_new_matches' });
    expect(payloads()).toHaveLength(3);
    expect(new Set(listAlerts(t.store).map((a) => a.created_at.slice(0, 10)))).toEqual(new Set(['2026-11-20', '2026-11-21', '2026-11-22']));
  });

  it('caps a digest at the top N and carries the rest to the next day', async () => {
    const n = ALERTS.v.digest_top_n; // 10
    const rows = Array.from({ length: n + 2 }, (_, i) => row({ listing_id: `L${String(i).padStart(2, '0')}`, percentiles: pct(99 - i) }));
    const d1 = await runDigest(t.store, run(day(1), rows));
    expect(d1.profiles[0]).toMatchObject({ status: 'queued', match_count: n, held_back: 2 });
    expect(lastMatches().map(([id]) => id)).toEqual(rows.slice(0, n).map((r) => r.listing_id));
    await runDigest(t.store, run(day(2), rows));
    expect(lastMatches().map(([id]) => id)).toEqual(['L10', 'L11']);
  });

  it('never alerts on rows scored by another model version', async () => {
    const stale = row({ listing_id: 'S', percentiles: pct(99), model_versions: { ...MODEL, model: 'avm-2026.10.0' } });
    const d = await runDigest(t.store, run(day(1), [stale]));
    expect(d.stale_rows).toBe(1);
    expect(d.profiles[0]).toMatchObject({ status: 'no_new_matches' });
  });

  it('queues a Telegram digest beside the webhook one when the profile asks for both', async () => {
    await createProfile(t.store, profileBody('http://127.0.0.1:1/hook', { channels: { telegram: true, webhook: { url: 'http://127.0.0.1:1/hook', secret: 'receiver_secret_0123456789' } }, criteria: { telegram_chat_id: '4242' } }), { ownerId: 'k1', allowPrivate: true });
    const d = await runDigest(t.store, run(day(1), [row({ listing_id: 'A', percentiles: pct(90) })]));
    expect(d.alert_ids).toHaveLength(2);
    const tg = listAlerts(t.store).find((a) => a.channel === 'telegram')!;
    const body = JSON.parse(tg.body) as { chat_id: string; text: string };
    expect(body.chat_id).toBe('4242');
    expect(body.text).toContain('A W Test St 60623 - $200,000; brrrr pct 90');
    expect(body.text).toContain(`model ${MODEL.model}`);
  });

  it('keeps dedupe and digest state across a restart (close and reopen the environment)', async () => {
    const A = row({ listing_id: 'A', percentiles: pct(90) });
    await runDigest(t.store, run(day(1), [A]));
    await t.store.env.close();
    const reopened = openAlertStore(openEnv(t.dir));
    t.store = reopened;
    expect((await getProfile(reopened, 'k1', 'p1'))?.id).toBe('p1');
    expect((await runDigest(reopened, run(day(1, 18), [A, row({ listing_id: 'B', percentiles: pct(91) })]))).profiles[0]).toMatchObject({ status: 'already_pushed_today' });
    expect((await runDigest(reopened, run(day(2), [A]))).profiles[0]).toMatchObject({ status: 'no_new_matches' });
    expect(listAlerts(reopened)).toHaveLength(1);
  });
});
