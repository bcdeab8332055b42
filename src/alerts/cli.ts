// Operator commands behind `avm alerts dead-letters` and `avm alerts replay ID`: list dead letters, replay one.
// Each call opens the outbox of dataDir (LMDB; with AVM_DATABASE_URL the CLI passes the PostgreSQL opener,
// store/ops-backend.ts openSharedOutbox), does its work, and closes it.
import { loadConfig, type Config } from '../config.js';
import { openEnv } from '../store/env.js';
import { deliverAlert, deliveryContextFromConfig, type DeliveryContext } from './delivery.js';
import type { AlertState } from './outbox.js';
import { lmdbOutbox, type AlertOutbox } from './outbox-store.js';
import { openAlertStore, type AlertStore } from './store.js';

export type DeadLetterRow = {
  id: string;
  profile_id: string;
  channel: string;
  created_at: string;
  attempts: number;
  replays: number;
  last_attempt_at: string | null;
  dead_letter: string | null;
};

/** An opened outbox (and the alert store its webhooks' profiles come from); close() releases what was opened. */
export type OutboxAccess = { store: AlertStore; outbox: AlertOutbox; close(): Promise<void> };
export type OpenOutbox = (dataDir: string) => Promise<OutboxAccess>;

const openLmdbOutbox: OpenOutbox = async (dataDir) => {
  const env = openEnv(dataDir);
  const store = openAlertStore(env);
  return { store, outbox: lmdbOutbox(store), close: () => env.close() };
};

async function withOutbox<T>(dataDir: string, open: OpenOutbox, fn: (a: OutboxAccess) => Promise<T>): Promise<T> {
  const access = await open(dataDir);
  try {
    return await fn(access);
  } finally {
    await access.close();
  }
}

export function listDeadLetters(dataDir: string, open: OpenOutbox = openLmdbOutbox): Promise<DeadLetterRow[]> {
  return withOutbox(dataDir, open, async ({ outbox }) =>
    (await outbox.list('dead_lettered')).map((r) => ({
      id: r.id,
      profile_id: r.profile_id,
      channel: r.channel,
      created_at: r.created_at,
      attempts: r.attempts.length,
      replays: r.replays,
      last_attempt_at: r.attempts.at(-1)?.finished_at ?? null,
      dead_letter: r.dead_letter,
    })),
  );
}

export type ReplayResult = { id: string; state: AlertState; diagnostic: string | null };

/**
 * Moves a dead letter back to pending and runs one delivery round (up to 3 attempts). Unknown id -> not_found;
 * an alert that is not dead-lettered -> validation_failed (a delivered alert is never re-sent).
 * `overrides` lets tests pass a resolver, clock or sleep; production settings come from the environment.
 */
export function replayDeadLetter(
  dataDir: string,
  id: string,
  overrides: Partial<Omit<DeliveryContext, 'store'>> & { config?: Config } = {},
  open: OpenOutbox = openLmdbOutbox,
): Promise<ReplayResult> {
  return withOutbox(dataDir, open, async ({ store, outbox }) => {
    await outbox.reopenDeadLetter(id, new Date((overrides.nowMs ?? Date.now)()));
    const { config, ...ctxOverrides } = overrides;
    const ctx: DeliveryContext = { ...deliveryContextFromConfig(store, config ?? loadConfig()), outbox, ...ctxOverrides };
    await deliverAlert(ctx, id);
    const rec = await outbox.get(id);
    return { id, state: rec?.state ?? 'pending', diagnostic: rec?.dead_letter ?? null };
  });
}

/** Human-readable lines for the CLI. */
export function formatDeadLetters(rows: DeadLetterRow[]): string {
  if (rows.length === 0) return 'no dead letters';
  return rows.map((r) => `${r.id}  ${r.channel}  profile=${r.profile_id}  attempts=${r.attempts}  last=${r.last_attempt_at ?? '-'}  ${r.dead_letter ?? ''}`).join('\n');
}
