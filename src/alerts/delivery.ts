// Delivery rounds over the outbox: up to 3 attempts with 200/400 ms backoff, each recorded durably; a 2xx marks the
// alert delivered durably before anything else happens; the 3rd failure dead-letters it with the last diagnostic.
// Every round runs under a claim (outbox-store.ts): an owner id and a lease, renewed by each recorded attempt, so two
// processes (two replicas on PostgreSQL, or two callers in one process) never run a round of one alert at once, and
// the claims of a process that died lapse and are taken by whoever delivers next.
//
// At-least-once window: if the process dies after the receiver answered 2xx but before "delivered" is fsynced, the
// alert is still pending and is sent again by resumeDelivery() (or, on replicas, by another replica's sweep once the
// lease lapsed). That re-send carries the same `webhook-id` and the same body, so receivers dedupe on webhook-id or, as
// the spec says, on (listing_id, price). Nothing recorded delivered is ever sent again: every round starts with a
// durable check-and-set on state === 'pending'.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { ALERTS } from '../registry/groups/alerts.js';
import { sendWebhookAttempt } from './deliver-webhook.js';
import type { AttemptOutcome } from './http-attempt.js';
import type { DigestResult, DigestRun } from './digest.js';
import type { AlertState, OutboxRecord } from './outbox.js';
import { lmdbOutbox, type AlertOutbox, type Claim } from './outbox-store.js';
import type { AlertStore } from './store.js';
import { sendTelegramAttempt, type TelegramSettings } from './telegram.js';
import type { HostResolver } from './url-guard.js';

export type DeliveryContext = {
  store: AlertStore;
  /** Where the alerts live: the LMDB outbox of `store` unless given (replicas on PostgreSQL: openPgOutbox). */
  outbox?: AlertOutbox;
  /** The digest writing into that outbox with its dedupe state (replicas: runDigestPg); the LMDB digest when absent. */
  digest?: (store: AlertStore, run: DigestRun) => Promise<DigestResult>;
  /** This process's claim owner id (default: host, pid and a random suffix). */
  owner?: string;
  /** Lease of a claim; default ALERTS.v.claim_lease_ms. */
  leaseMs?: number;
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

/** Claims made by this process: unique across replicas and restarts. */
const PROCESS_OWNER = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

const outboxOf = (ctx: DeliveryContext): AlertOutbox => ctx.outbox ?? lmdbOutbox(ctx.store);
const claimOf = (ctx: DeliveryContext): Claim => ({ owner: ctx.owner ?? PROCESS_OWNER, leaseMs: ctx.leaseMs ?? ALERTS.v.claim_lease_ms });

async function attemptOnce(ctx: DeliveryContext, rec: OutboxRecord, nowMs: () => number): Promise<AttemptOutcome & { signedAtSec: number | null }> {
  const timeoutMs = ctx.timeoutMs ?? ALERTS.v.webhook_timeout_ms;
  if (rec.channel === 'webhook') {
    return sendWebhookAttempt({ store: ctx.store, allowPrivate: ctx.allowPrivate, resolver: ctx.resolver, timeoutMs, nowMs }, rec);
  }
  return { ...(await sendTelegramAttempt(ctx.telegram, rec, timeoutMs)), signedAtSec: null };
}

/** One delivery round of one alert this process has claimed. Returns the final state (or the current one when the claim was lost). */
async function runClaimedRound(ctx: DeliveryContext, rec: OutboxRecord): Promise<AlertState | undefined> {
  const outbox = outboxOf(ctx);
  const claim = claimOf(ctx);
  const nowMs = ctx.nowMs ?? Date.now;
  const sleep = ctx.sleep ?? defaultSleep;
  const id = rec.id;
  let last = 'no_attempt';
  for (let n = 1; n <= ALERTS.v.max_attempts; n++) {
    const startedAt = new Date(nowMs()).toISOString();
    const o = await attemptOnce(ctx, rec, nowMs);
    const after = await outbox.recordAttempt(id, claim, {
      round: rec.rounds,
      started_at: startedAt,
      finished_at: new Date(nowMs()).toISOString(),
      signed_at_sec: o.signedAtSec,
      ok: o.ok,
      status: o.status,
      diagnostic: o.diagnostic,
    });
    ctx.log?.('alert_attempt', { id, channel: rec.channel, round: rec.rounds, attempt: n, ok: o.ok, status: o.status, diagnostic: o.diagnostic });
    if (!after) return (await outbox.get(id))?.state; // finished, or claimed after our lease lapsed, elsewhere
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
  if (!(await outbox.deadLetter(id, claim, last, new Date(nowMs())))) return (await outbox.get(id))?.state;
  ctx.onOutcome?.('dead_lettered');
  ctx.log?.('alert_dead_lettered', { id, channel: rec.channel, diagnostic: last });
  return 'dead_lettered';
}

/** Delivers one alert if it is pending and nobody (this process included) holds a live claim on it. */
export async function deliverAlert(ctx: DeliveryContext, id: string): Promise<AlertState | undefined> {
  const outbox = outboxOf(ctx);
  const rec = await outbox.claim(id, claimOf(ctx), new Date((ctx.nowMs ?? Date.now)()));
  if (!rec) return (await outbox.get(id))?.state;
  return runClaimedRound(ctx, rec);
}

export type DeliverySummary = { delivered: string[]; dead_lettered: string[]; skipped: string[] };

/**
 * Delivers the given alerts, or (default) every claimable pending one, oldest first, with bounded concurrency. Without
 * ids each worker claims the next due alert itself (SKIP LOCKED on PostgreSQL), so replicas sweeping together share
 * the backlog instead of racing for the same alerts.
 */
export async function deliverPending(ctx: DeliveryContext, ids?: string[]): Promise<DeliverySummary> {
  const summary: DeliverySummary = { delivered: [], dead_lettered: [], skipped: [] };
  const tally = (id: string, state: AlertState | undefined): void => {
    if (state === 'delivered') summary.delivered.push(id);
    else if (state === 'dead_lettered') summary.dead_lettered.push(id);
    else summary.skipped.push(id);
  };
  const outbox = outboxOf(ctx);
  const nowMs = ctx.nowMs ?? Date.now;
  let next = 0;
  const given = async (): Promise<void> => {
    while (ids && next < ids.length) {
      const id = ids[next++];
      tally(id, await deliverAlert(ctx, id));
    }
  };
  const due = async (): Promise<void> => {
    for (;;) {
      const [rec] = await outbox.claimDue(claimOf(ctx), new Date(nowMs()), 1);
      if (!rec) return;
      tally(rec.id, await runClaimedRound(ctx, rec));
    }
  };
  const width = Math.max(1, Math.min(ctx.concurrency ?? ALERTS.v.delivery_concurrency, ids ? ids.length : Infinity));
  await Promise.all(Array.from({ length: width }, ids ? given : due));
  return summary;
}

/**
 * Startup hook: re-sends every alert left pending by a crash or restart (a new round of up to 3 attempts). The pending
 * list is read once and each alert claimed by id (one held by another replica is skipped): claiming the next due alert
 * one at a time would read the whole LMDB outbox, delivered history included, once per alert.
 */
export async function resumeDelivery(ctx: DeliveryContext): Promise<DeliverySummary> {
  return deliverPending(ctx, (await outboxOf(ctx).list('pending')).map((r) => r.id));
}
