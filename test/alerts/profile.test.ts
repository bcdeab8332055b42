import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProfile, getProfile, listProfiles, parseProfileInput, publicProfile, requiredScopes } from '../../src/alerts/profile.js';
import { AppError } from '../../src/errors/app-error.js';
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
    expect(getProfile(t.store, 'p1')?.channels.webhook?.secret).toBe(SECRET);
    expect(JSON.stringify(listProfiles(t.store, 'k1').map(publicProfile))).not.toContain(SECRET);
  });
  it('refuses a webhook that resolves to a private address at creation', async () => {
    const e = await createProfile(t.store, profileBody('http://192.168.0.10/hook'), { ownerId: 'k1', allowPrivate: false }).catch((x: unknown) => x);
    expect((e as AppError).code).toBe('webhook_url_refused');
    expect(getProfile(t.store, 'p1')).toBeUndefined();
  });
  it('refuses to take over another owner\'s profile id', async () => {
    await createProfile(t.store, profileBody('http://127.0.0.1:1/h'), { ownerId: 'k1', allowPrivate: true });
    const e = await createProfile(t.store, profileBody('http://127.0.0.1:1/h'), { ownerId: 'k2', allowPrivate: true }).catch((x: unknown) => x);
    expect((e as AppError).code).toBe('validation_failed');
    expect(getProfile(t.store, 'p1')?.owner_id).toBe('k1');
  });
  it('needs the webhooks scope only for webhook channels', () => {
    expect(requiredScopes(parseProfileInput(profileBody('https://h.example')))).toEqual(['write-state', 'webhooks']);
    expect(requiredScopes(parseProfileInput(profileBody('x', { channels: { telegram: true }, criteria: { telegram_chat_id: '42' } })))).toEqual(['write-state']);
  });
});
