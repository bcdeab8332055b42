import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProfile, getProfile, listProfiles, parseProfileInput, profileByRef, publicProfile, requiredScopes } from '../../src/alerts/profile.js';
import { AppError } from '../../src/errors/app-error.js';
import { openOwnedStore } from '../../src/events/owned-records.js';
import { ALERTS } from '../../src/registry/groups/alerts.js';
import { profileBody, tempStore, type TempStore } from './support.js';

const SECRET = 'receiver_secret_0123456789';

function rejects(input: unknown, pathFragment: string): void {
  let err: unknown;
  try {
    parseProfileInput(input);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('validation_failed');
  expect((err as AppError).message).toContain(pathFragment);
  expect(JSON.stringify((err as AppError).details) + (err as AppError).message).not.toContain(SECRET);
}

describe('parseProfileInput(input)', () => {
  const base = profileBody('https://hooks.example.com/x');
  it('accepts the spec fields and defaults criteria to {}', () => {
    expect(parseProfileInput(base)).toMatchObject({ strategy: 'brrrr', criteria: {}, bbox: [-87.94, 41.64, -87.52, 42.02] });
  });
  it('rejects a profile with no channel to deliver to', () => {
    for (const channels of [{}, { telegram: false }]) {
      expect(() => parseProfileInput({ ...base, channels }), JSON.stringify(channels)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    }
  });
  it('rejects extra keys at every level', () => {
    rejects({ ...base, extra: 1 }, 'extra');
    rejects({ ...base, channels: { webhook: { url: 'https://h.example', secret: SECRET, events: ['x'] } } }, 'channels.webhook');
    rejects({ ...base, channels: { sms: true } }, 'channels');
  });
  it('rejects out-of-range numbers and a bad strategy', () => {
    rejects({ ...base, min_percentile: 101 }, 'min_percentile');
    rejects({ ...base, min_confidence: -1 }, 'min_confidence');
    rejects({ ...base, max_price: -5 }, 'max_price');
    rejects({ ...base, strategy: 'wholesale' }, 'strategy');
  });
  it('rejects a bbox that is not west<east, south<north within lat/lon bounds', () => {
    rejects({ ...base, bbox: [-87.5, 41.6, -87.9, 42.0] }, 'bbox');
    rejects({ ...base, bbox: [-87.9, 42.0, -87.5, 41.6] }, 'bbox');
    rejects({ ...base, bbox: [-87.9, 41.6, -87.5] }, 'bbox');
    rejects({ ...base, bbox: [-190, 41.6, -87.5, 42] }, 'bbox');
    rejects({ ...base, bbox: [-87.9, 41.6, -87.5, 95] }, 'bbox');
  });
  it('rejects a short secret without echoing it', () => {
    rejects({ ...base, channels: { webhook: { url: 'https://h.example', secret: 'short' } } }, 'channels.webhook.secret');
  });
  it('requires criteria.telegram_chat_id when channels.telegram is true', () => {
    rejects({ ...base, channels: { telegram: true } }, 'criteria.telegram_chat_id');
    expect(parseProfileInput({ ...base, channels: { telegram: true }, criteria: { telegram_chat_id: -1001234567 } }).criteria.telegram_chat_id).toBe('-1001234567');
  });
});

describe('createProfile(store, input, opts)', () => {
  let t: TempStore;
  beforeEach(() => {
    t = tempStore();
  });
  afterEach(async () => {
    await t.close();
  });

  it('stores the secret but never returns it', async () => {
    const pub = await createProfile(t.store, profileBody('https://93.184.216.34/hook'), { ownerId: 'k1', allowPrivate: false });
    expect(pub.channels.webhook).toEqual({ url: 'https://93.184.216.34/hook', secret_set: true });
    expect(JSON.stringify(pub)).not.toContain(SECRET);
    expect((await getProfile(t.store, 'k1', 'p1'))?.channels.webhook?.secret).toBe(SECRET);
    expect(JSON.stringify((await listProfiles(t.store, 'k1')).map(publicProfile))).not.toContain(SECRET);
  });
  it('refuses a webhook that resolves to a private address at creation', async () => {
    const e = await createProfile(t.store, profileBody('http://192.168.0.10/hook'), { ownerId: 'k1', allowPrivate: false }).catch((x: unknown) => x);
    expect((e as AppError).code).toBe('webhook_url_refused');
    expect((await getProfile(t.store, 'k1', 'p1'))).toBeUndefined();
  });
  it('keeps another owner\'s profile of the same id as a separate record (never "taken", never replaced)', async () => {
    await createProfile(t.store, profileBody('http://127.0.0.1:1/h', { name: 'first' }), { ownerId: 'k1', allowPrivate: true });
    await createProfile(t.store, profileBody('http://127.0.0.1:1/h', { name: 'second' }), { ownerId: 'k2', allowPrivate: true });
    expect((await getProfile(t.store, 'k1', 'p1'))).toMatchObject({ owner_id: 'k1', name: 'first', ref: 'k1/p1' });
    expect((await getProfile(t.store, 'k2', 'p1'))).toMatchObject({ owner_id: 'k2', name: 'second', ref: 'k2/p1' });
  });
  it('keeps both profiles when two owners create the same id concurrently (each reads back its own)', async () => {
    // Issue 13: check-then-write outside one transaction let the second owner's write replace the first's, both acknowledged.
    const telegram = (name: string) => profileBody('', { name, channels: { telegram: true }, criteria: { telegram_chat_id: '4242' } });
    for (let trial = 0; trial < 5; trial++) {
      const id = `race${trial}`;
      const [a, b] = await Promise.all([
        createProfile(t.store, { ...telegram('owner A'), id }, { ownerId: 'key:aaaaaaaaaaaa', allowPrivate: false }),
        createProfile(t.store, { ...telegram('owner B'), id }, { ownerId: 'key:bbbbbbbbbbbb', allowPrivate: false }),
      ]);
      expect([a.name, b.name]).toEqual(['owner A', 'owner B']);
      expect((await listProfiles(t.store, 'key:aaaaaaaaaaaa')).filter((p) => p.id === id).map((p) => p.name)).toEqual(['owner A']);
      expect((await listProfiles(t.store, 'key:bbbbbbbbbbbb')).filter((p) => p.id === id).map((p) => p.name)).toEqual(['owner B']);
    }
  });

  it('lets concurrent creates by one owner pass the per-owner cap only once', async () => {
    const max = ALERTS.v.max_profiles_per_owner;
    const body = (id: string) => profileBody('', { id, channels: { telegram: true }, criteria: { telegram_chat_id: '4242' } });
    for (let i = 0; i < max - 1; i++) await createProfile(t.store, body(`p${i}`), { ownerId: 'key:cccccccccccc', allowPrivate: false });
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => createProfile(t.store, body(`extra${i}`), { ownerId: 'key:cccccccccccc', allowPrivate: false })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) expect(o.reason).toMatchObject({ code: 'validation_failed' });
    expect((await listProfiles(t.store, 'key:cccccccccccc'))).toHaveLength(max);
  });

  it('profileByRef finds the profile an outbox record names: <owner>/<id>, a legacy bare id, never a guess between owners', async () => {
    const tg = { channels: { telegram: true }, criteria: { telegram_chat_id: '42' } };
    await createProfile(t.store, profileBody('', { ...tg, name: 'k1 p1' }), { ownerId: 'k1', allowPrivate: false });
    expect((await profileByRef(t.store, 'k1/p1'))?.name).toBe('k1 p1');
    expect((await profileByRef(t.store, 'p1'))?.name).toBe('k1 p1'); // the one profile of that id (an alert queued by hand)
    await createProfile(t.store, profileBody('', { ...tg, name: 'k2 p1' }), { ownerId: 'k2', allowPrivate: false });
    expect((await profileByRef(t.store, 'p1'))).toBeUndefined(); // two owners hold p1: a bare id names neither
    expect((await profileByRef(t.store, 'k2/p1'))?.name).toBe('k2 p1');
    const k1p1 = (await getProfile(t.store, 'k1', 'p1'))!;
    const lmdbOwned = openOwnedStore(t.store.env);
    await lmdbOwned.db.transaction(() => lmdbOwned.putInTxn('profile', 'k3', 'p1', { ...k1p1, name: 'legacy', ref: 'p1' }));
    expect((await profileByRef(t.store, 'p1'))?.name).toBe('legacy'); // a profile moved from the global keys keeps its old id as ref
  });

  it('needs the webhooks scope only for webhook channels', () => {
    expect(requiredScopes(parseProfileInput(profileBody('https://h.example')))).toEqual(['write-state', 'webhooks']);
    expect(requiredScopes(parseProfileInput(profileBody('x', { channels: { telegram: true }, criteria: { telegram_chat_id: '42' } })))).toEqual(['write-state']);
  });
});
