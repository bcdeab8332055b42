// Operator commands behind `avm alerts dead-letters` and `avm alerts replay ID`: list dead letters, replay one.
// Each call opens the environment under dataDir, does its work, and closes it.
import { loadConfig, type Config } from '../config.js';
import { openEnv } from '../store/env.js';
import { deliverAlert, deliveryContextFromConfig, type DeliveryContext } from './delivery.js';
import { getAlert, listAlerts, reopenDeadLetter, type AlertState } from './outbox.js';
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

async function withStore<T>(dataDir: string, fn: (store: AlertStore) => Promise<T>): Promise<T> {
  const env = openEnv(dataDir);
  try {
    return await fn(openAlertStore(env));
  } finally {
    await env.close();
  }
}

export function listDeadLetters(dataDir: string): Promise<DeadLetterRow[]> {
  return withStore(dataDir, async (store) =>
    listAlerts(store, 'dead_lettered').map((r) => ({
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
export function replayDeadLetter(dataDir: string, id: string, overrides: Partial<Omit<DeliveryContext, 'store'>> & { config?: Config } = {}): Promise<ReplayResult> {
  return withStore(dataDir, async (store) => {
    await reopenDeadLetter(store, id, new Date((overrides.nowMs ?? Date.now)()));
    const { config, ...ctxOverrides } = overrides;
    const ctx: DeliveryContext = { ...deliveryContextFromConfig(store, config ?? loadConfig()), ...ctxOverrides };
    await deliverAlert(ctx, id);
    const rec = getAlert(store, id);
    return { id, state: rec?.state ?? 'pending', diagnostic: rec?.dead_letter ?? null };
  });
}

/** Human-readable lines for the CLI. */
export function formatDeadLetters(rows: DeadLetterRow[]): string {
  if (rows.length === 0) return 'no dead letters';
  return rows.map((r) => `${r.id}  ${r.channel}  profile=${r.profile_id}  attempts=${r.attempts}  last=${r.last_attempt_at ?? '-'}  ${r.dead_letter ?? ''}`).join('\n');
}
