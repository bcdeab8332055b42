// The operations that write: user state (favorites, presets, notes), alert profiles (tool and REST), and the
// UI-controller tools that only append a map-sync record. Each write belongs to the caller's owner (ownerOf) and is
// acknowledged once it and its stream record are durable, committed together.
import { guardProfileWebhook, parseProfileInput, publicProfile, requiredScopes, writeProfile } from '../alerts/index.js';
import { actorOf, authorize, ownerOf, type Caller } from '../auth/authorize.js';
import type { WriteAck } from '../contracts/common.js';
import { AppError } from '../errors/app-error.js';
import { TOOL_EVENT_KIND } from '../events/kinds.js';
import type { ServiceContext } from './context.js';
import type { DoorServices } from './door-services.js';

type Call = { caller: Caller };

/** The writer (key) and the owner it writes for; the scope guard already refused callers without a key. */
function writerOf(call: Call): { actor: string; owner: string } {
  const owner = ownerOf(call.caller);
  if (owner === null) throw new AppError('unauthorized', 'this operation needs an API key');
  return { actor: actorOf(call.caller), owner };
}

export function stateOperations(svc: ServiceContext, doors: DoorServices) {
  const createProfileOp = async (input: unknown, call: Call) => {
    const parsed = parseProfileInput(input);
    for (const scope of requiredScopes(parsed)) {
      const refusal = authorize(call.caller, scope);
      if (refusal) throw refusal;
    }
    await guardProfileWebhook(parsed, { allowPrivate: svc.config.allowPrivateWebhooks });
    const { actor, owner } = writerOf(call);
    // The owner's cap check, the profile and its stream record commit in one transaction.
    const { profile, event } = await writeProfile(doors.alerts, parsed, {
      ownerId: owner, now: svc.now(), event: (p) => ({ kind: 'strategy_profile_created', payload: publicProfile(p), actor, owner }),
    });
    return { ok: true as const, event_id: event!.id, profile: { ...publicProfile(profile) } };
  };
  const ack = (record: object): WriteAck => ({ ok: true, record: { ...record } });
  const uiTool = (kind: keyof typeof TOOL_EVENT_KIND) => async (input: unknown, call: Call) => {
    const rec = await doors.events.appendEvent({ kind: TOOL_EVENT_KIND[kind], payload: input, actor: actorOf(call.caller) });
    return { ok: true as const, event_id: rec.id, kind: rec.kind };
  };
  const state = doors.userState;
  return {
    save_favorite_property: async (input: unknown, call: Call) => {
      const w = writerOf(call);
      return ack(await state.saveFavorite(input, w.actor, w.owner));
    },
    update_underwriting_preset: async (input: unknown, call: Call) => {
      const w = writerOf(call);
      return ack(await state.upsertPreset(input, w.actor, w.owner));
    },
    add_note: async (input: unknown, call: Call) => {
      const w = writerOf(call);
      return ack(await state.addNote(input, w.actor, w.owner));
    },
    create_strategy_profile: createProfileOp,
    create_profile_rest: createProfileOp,
    update_map_filters: uiTool('update_map_filters'),
    fly_to_location: uiTool('fly_to_location'),
    highlight_properties: uiTool('highlight_properties'),
  };
}
