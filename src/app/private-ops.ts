// The private endpoints (spec, Authentication 6): the caller's own state and saved deals, read per owner from the owned
// user state, and a listings run on demand for the operator. The operation guard has already refused a caller without
// the credential; the owner comes from the key (ownerOf), never from the input.
import { publicProfile, type StoredProfile } from '../alerts/index.js';
import { ownerOf, type Caller } from '../auth/authorize.js';
import { MODEL_VERSIONS } from '../registry/versions.js';
import { STATE_KINDS, type StateQuery, type DealsQuery, type RunListingsOutput, type StateOutput } from '../contracts/private.js';
import { DISCLOSURE } from '../contracts/valuation.js';
import { AppError } from '../errors/app-error.js';
import type { PageItem } from '../events/owned-records.js';
import { backendOf } from './door-services.js';
import type { Favorite } from '../events/user-state.js';
import type { ListingsRunResult } from '../listings/index.js';
import { runObservedListings } from './listings-run.js';
import type { ServiceContext } from './context.js';
import { dealOf, currentListingRows } from './deals.js';

type Call = { caller: Caller };

function ownerOfCall(call: Call): string {
  const owner = ownerOf(call.caller);
  if (owner === null) throw new AppError('unauthorized', 'this operation needs an API key');
  return owner;
}

/** Cursor: opaque base64url of {b: seq}; the next page holds the owner's records written before that seq. */
export function encodeStateCursor(seq: number): string {
  return Buffer.from(JSON.stringify({ b: seq })).toString('base64url');
}
export function decodeStateCursor(cursor: string): number {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { b?: unknown };
    if (Number.isSafeInteger(v.b) && (v.b as number) >= 1) return v.b as number;
  } catch {
    /* fall through to the error */
  }
  throw new AppError('invalid_cursor', 'cursor is not one a previous page of this endpoint issued');
}

/** A profile's webhook secret never leaves the store; every other record is shown as stored. */
const shown = (item: PageItem): StateOutput['items'][number] => ({ ...item, record: item.kind === 'profile' ? { ...publicProfile(item.record as unknown as StoredProfile) } : item.record });

function runSummary(r: ListingsRunResult, joined: boolean): RunListingsOutput {
  const alerts = r.alerts ? { queued: r.alerts.digest.alert_ids.length, delivered: r.alerts.delivery.delivered.length, dead_lettered: r.alerts.delivery.dead_lettered.length } : null;
  return {
    run_id: r.run_id, last_run: r.last_run, feed_rows: r.feed_rows, duplicates: r.duplicates, overflow: r.overflow, active: r.active, scored: r.scored,
    unscored: r.unscored, errors: r.errors, wall_ms: r.wall_ms, alerts, joined,
  };
}

export function privateOperations(svc: ServiceContext) {
  const owned = backendOf(svc).owned;
  // One on-demand run at a time: a second request while one runs waits for it and answers its result.
  let running: Promise<ListingsRunResult> | null = null;
  return {
    state: async (i: StateQuery, call: Call): Promise<StateOutput> => {
      const owner = ownerOfCall(call);
      const beforeSeq = i.cursor === undefined ? null : decodeStateCursor(i.cursor);
      const page = await owned.page(owner, { kinds: i.kind ? [i.kind] : STATE_KINDS, limit: i.limit, beforeSeq });
      return { owner, items: page.items.map(shown), next_cursor: page.more ? encodeStateCursor(page.items.at(-1)!.seq) : null };
    },
    deals: async (i: DealsQuery, call: Call) => {
      const owner = ownerOfCall(call);
      const beforeSeq = i.cursor === undefined ? null : decodeStateCursor(i.cursor);
      const page = await owned.page(owner, { kinds: ['favorite'], limit: i.limit, beforeSeq });
      const rows = currentListingRows(svc.store);
      const items = await Promise.all(page.items.map((it) => dealOf(it.record as unknown as Favorite, rows, svc.engine)));
      return {
        as_of: svc.now().toISOString(), model_versions: MODEL_VERSIONS, confidence: null, items,
        next_cursor: page.more ? encodeStateCursor(page.items.at(-1)!.seq) : null, disclosure: DISCLOSURE,
      };
    },
    run_listings: async () => {
      const joined = running !== null;
      running ??= runObservedListings(svc, 'manual').finally(() => {
        running = null;
      });
      return runSummary(await running, joined);
    },
  };
}
