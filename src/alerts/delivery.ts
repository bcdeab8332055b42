// Delivery rounds over the outbox: up to 3 attempts with 200/400 ms backoff, each recorded durably; a 2xx marks the
// alert delivered durably before anything else happens; the 3rd failure dead-letters it with the last diagnostic.
//
// At-least-once window: if the process dies after the receiver answered 2xx but before "delivered" is fsynced, the
// alert is still pending and is sent again by resumeDelivery(). That re-send carries the same `webhook-id` and the same
// body, so receivers dedupe on webhook-id or, as the spec says, on (listing_id, price). Nothing recorded delivered
// is ever sent again: every round starts with a durable check-and-set on state === 'pending'.
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { ALERTS } from '../registry/groups/alerts.js';
import { sendWebhookAttempt } from './deliver-webhook.js';
import type { AttemptOutcome } from './http-attempt.js';
import { beginRound, getAlert, listAlerts, markDeadLettered, recordAttempt, type AlertState, type OutboxRecord } from './outbox.js';
import type { AlertStore } from './store.js';
import { sendTelegramAttempt, type TelegramSettings } from './telegram.js';
import type { HostResolver } from './url-guard.js';

export type DeliveryContext = {
  store: AlertStore;
  allowPrivate: boolean;
  telegram: TelegramSettings;
  resolver?: HostResolver;
  /** Per-attempt timeout; production uses ALERTS.v.webhook_timeout_ms (5 s). */
  timeoutMs?: number;
  /** Backoff wait; defaults to a setTimeout promise so tests drive it with fake timers. */
  sleep?: (ms: number) => Promise<void>;
  /** Clock for signature timestamps and attempt records (ms since epoch). */
  nowMs?: () => number;
  concurrency?: number;
  /** Structured log sink; never receives secrets, bodies or URLs. */
  log?: (event: string, fields: Record<string, unknown>) => void;
  /** Told each attempt's outcome (the service counts them for /metrics). */
  onOutcome?: (outcome: AlertOutcome) => void;
};

/** One attempt's outcome: delivered; retried (it failed and another attempt follows); dead_lettered (the round gave up). */
export type AlertOutcome = 'delivered' | 'retried' | 'dead_lettered';

export const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The production context from the service config: private webhook targets only when AVM_ALLOW_PRIVATE_WEBHOOKS=true. */
export function deliveryContextFromConfig(
  store: AlertStore,
  config: Pick<Config, 'allowPrivateWebhooks' | 'telegramBaseUrl' | 'telegramBotToken'>,
  logger?: Pick<Logger, 'info'>,
): DeliveryContext {
  return {
    store,
    allowPrivate: config.allowPrivateWebhooks,
    telegram: { baseUrl: config.telegramBaseUrl, botToken: config.telegramBotToken },
    log: logger ? (event, fields) => logger.info(event, fields) : undefined,
  };
}

// Alerts being delivered by this process, per environment, so a resume and a post-run delivery never overlap.
const inFlight = new WeakMap<object, Set<string>>();

async function attemptOnce(ctx: DeliveryContext, rec: OutboxRecord, nowMs: () => number): Promise<AttemptOutcome & { signedAtSec: number | null }> {
  const timeoutMs = ctx.timeoutMs ?? ALERTS.v.webhook_timeout_ms;
  if (rec.channel === 'webhook') {
    return sendWebhookAttempt({ store: ctx.store, allowPrivate: ctx.allowPrivate, resolver: ctx.resolver, timeoutMs, nowMs }, rec);
  }
  return { ...(await sendTelegramAttempt(ctx.telegram, rec, timeoutMs)), signedAtSec: null };
}

/** One delivery round of one alert. Returns the final state (or the current one when it was not pending). */
async function runRound(ctx: DeliveryContext, id: string): Promise<AlertState | undefined> {
  const nowMs = ctx.nowMs ?? Date.now;
  const sleep = ctx.sleep ?? defaultSleep;
  const rec = await beginRound(ctx.store, id, new Date(nowMs()));
  if (!rec) return getAlert(ctx.store, id)?.state;
  let last = 'no_attempt';
  for (let n = 1; n <= ALERTS.v.max_attempts; n++) {
    const startedAt = new Date(nowMs()).toISOString();
    const o = await attemptOnce(ctx, rec, nowMs);
    const after = await recordAttempt(ctx.store, id, {
      round: rec.rounds,
      started_at: startedAt,
      finished_at: new Date(nowMs()).toISOString(),
      signed_at_sec: o.signedAtSec,
      ok: o.ok,
      status: o.status,
      diagnostic: o.diagnostic,
    });
    ctx.log?.('alert_attempt', { id, channel: rec.channel, round: rec.rounds, attempt: n, ok: o.ok, status: o.status, diagnostic: o.diagnostic });
    if (!after) return getAlert(ctx.store, id)?.state; // finished elsewhere meanwhile
    if (o.ok) {
      ctx.onOutcome?.('delivered');
      return 'delivered';
    }
    last = o.diagnostic;
    if (o.permanent) break;
    if (n < ALERTS.v.max_attempts) {
      ctx.onOutcome?.('retried');
      await sleep(ALERTS.v.backoff_ms[n - 1]);
    }
  }
  await markDeadLettered(ctx.store, id, last, new Date(nowMs()));
  ctx.onOutcome?.('dead_lettered');
  ctx.log?.('alert_dead_lettered', { id, channel: rec.channel, diagnostic: last });
  return 'dead_lettered';
}

/** Delivers one alert if it is pending and not already in flight in this process. */
export async function deliverAlert(ctx: DeliveryContext, id: string): Promise<AlertState | undefined> {
  let ids = inFlight.get(ctx.store.env);
  if (!ids) inFlight.set(ctx.store.env, (ids = new Set()));
  if (ids.has(id)) return 'pending';
  ids.add(id);
  try {
    return await runRound(ctx, id);
  } finally {
    ids.delete(id);
  }
}

export type DeliverySummary = { delivered: string[]; dead_lettered: string[]; skipped: string[] };

/** Delivers the given alerts (default: every pending one) with bounded concurrency, oldest first. */
export async function deliverPending(ctx: DeliveryContext, ids?: string[]): Promise<DeliverySummary> {
  const queue = ids ?? listAlerts(ctx.store, 'pending').map((r) => r.id);
  const summary: DeliverySummary = { delivered: [], dead_lettered: [], skipped: [] };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < queue.length) {
      const id = queue[next++];
      const state = await deliverAlert(ctx, id);
      if (state === 'delivered') summary.delivered.push(id);
      else if (state === 'dead_lettered') summary.dead_lettered.push(id);
      else summary.skipped.push(id);
    }
  };
  const width = Math.max(1, Math.min(ctx.concurrency ?? ALERTS.v.delivery_concurrency, queue.length));
  await Promise.all(Array.from({ length: width }, worker));
  return summary;
}

/** Startup hook: re-sends every alert left pending by a crash or restart (a new round of up to 3 attempts). */
export function resumeDelivery(ctx: DeliveryContext): Promise<DeliverySummary> {
  return deliverPending(ctx);
}
