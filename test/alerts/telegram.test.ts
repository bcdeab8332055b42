import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliverAlert, type DeliveryContext } from '../../src/alerts/delivery.js';
import { runDigest } from '../../src/alerts/digest.js';
import { getAlert, listAlerts } from '../../src/alerts/outbox.js';
import { createProfile } from '../../src/alerts/profile.js';
import { renderTelegramText } from '../../src/alerts/telegram.js';
import { ALERTS } from '../../src/registry/groups/alerts.js';
import { MODEL, profileBody, row, startReceiver, tempStore, type Behaviour, type Receiver, type TempStore } from './support.js';

const TOKEN = '123456:ABC-secret-bot-token';
let t: TempStore;
let api: Receiver;
let sleeps: number[];

async function queueTelegramDigest(): Promise<string> {
  await createProfile(t.store, profileBody('', { channels: { telegram: true }, criteria: { telegram_chat_id: '-1009876' } }), { ownerId: 'k1', allowPrivate: false });
  const now = new Date('2026-11-20T13:05:00Z');
  const d = await runDigest(t.store, { rows: [row({ listing_id: 'A', percentiles: { flip: 10, brrrr: 91, hold: 20, house_hack: 5 } })], now, asOf: now, modelVersions: MODEL });
  return d.alert_ids[0];
}

function ctxFor(baseUrl: string, botToken: string | null): DeliveryContext {
  return { store: t.store, allowPrivate: false, telegram: { baseUrl, botToken }, sleep: async (ms) => void sleeps.push(ms) };
}

async function startApi(script: (n: number) => Behaviour): Promise<string> {
  api = await startReceiver((n) => script(n));
  return api.url.replace(/\/hook$/, '');
}

beforeEach(() => {
  t = tempStore();
  sleeps = [];
});
afterEach(async () => {
  await api?.close();
  await t.close();
});

describe('Telegram channel (sendMessage on a configurable base URL)', () => {
  it('POSTs {chat_id, text} to {base}/bot{token}/sendMessage', async () => {
    const base = await startApi(() => ({ kind: 'status', status: 200, body: '{"ok":true}' }));
    const id = await queueTelegramDigest();
    expect(getAlert(t.store, id)?.channel).toBe('telegram');
    expect(await deliverAlert(ctxFor(base, TOKEN), id)).toBe('delivered');
    expect(api.received).toHaveLength(1);
    expect(api.received[0].path).toBe(`/bot${TOKEN}/sendMessage`);
    const body = JSON.parse(api.received[0].body) as { chat_id: string; text: string };
    expect(body.chat_id).toBe('-1009876');
    expect(body.text).toMatch(/^West side BRRRR: 1 brrrr match \(as of 2026-11-20T13:05:00.000Z\)/);
  });

  it('follows the same retry and dead-letter path, and keeps the token out of diagnostics', async () => {
    const base = await startApi((n) => ({ kind: 'status', status: 502, body: `bad gateway ${n}` }));
    const id = await queueTelegramDigest();
    expect(await deliverAlert(ctxFor(base, TOKEN), id)).toBe('dead_lettered');
    expect(api.received).toHaveLength(3);
    expect(sleeps).toEqual([200, 400]);
    const rec = getAlert(t.store, id)!;
    expect(rec.dead_letter).toBe('http_502: bad gateway 2');
    expect(JSON.stringify(rec)).not.toContain(TOKEN);
  });

  it('dead-letters at once, without a request, when no bot token is configured', async () => {
    const base = await startApi(() => ({ kind: 'status', status: 200 }));
    const id = await queueTelegramDigest();
    expect(await deliverAlert(ctxFor(base, null), id)).toBe('dead_lettered');
    expect(api.received).toHaveLength(0);
    expect(listAlerts(t.store, 'dead_lettered')[0].dead_letter).toMatch(/^telegram_not_configured/);
  });

  it('truncates a digest to the Telegram text limit', () => {
    const long = { profile: { id: 'p', name: 'x'.repeat(5_000) }, strategy: 'flip' as const, as_of: '2026-11-20T13:05:00.000Z', model_versions: MODEL, matches: [] };
    expect(renderTelegramText(long).length).toBe(ALERTS.v.telegram_max_text_chars);
  });
});
