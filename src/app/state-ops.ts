// The operations that write: user state (favorites, presets, notes), alert profiles (tool and REST), and the
// UI-controller tools that only append a map-sync record. Each acknowledges once the record is durable.
import { createProfile, parseProfileInput, requiredScopes } from '../alerts/index.js';
import { actorOf, authorize, type Caller } from '../auth/authorize.js';
import type { WriteAck } from '../contracts/common.js';
import { TOOL_EVENT_KIND } from '../events/kinds.js';
import type { ServiceContext } from './context.js';
import type { DoorServices } from './door-services.js';

type Call = { caller: Caller };

export function stateOperations(svc: ServiceContext, doors: DoorServices) {
  const createProfileOp = async (input: unknown, call: Call) => {
    for (const scope of requiredScopes(parseProfileInput(input))) {
      const refusal = authorize(call.caller, scope);
      if (refusal) throw refusal;
    }
    const profile = await createProfile(doors.alerts, input, { ownerId: actorOf(call.caller), allowPrivate: svc.config.allowPrivateWebhooks, now: svc.now() });
    const rec = await doors.events.appendEvent({ kind: 'strategy_profile_created', payload: profile, actor: actorOf(call.caller) });
    return { ok: true as const, event_id: rec.id, profile: { ...profile } };
  };
  const ack = (record: object): WriteAck => ({ ok: true, record: { ...record } });
  const uiTool = (kind: keyof typeof TOOL_EVENT_KIND) => async (input: unknown, call: Call) => {
    const rec = await doors.events.appendEvent({ kind: TOOL_EVENT_KIND[kind], payload: input, actor: actorOf(call.caller) });
    return { ok: true as const, event_id: rec.id, kind: rec.kind };
  };
  return {
    save_favorite_property: async (input: unknown, call: Call) => ack(await doors.userState.saveFavorite(input, actorOf(call.caller))),
    update_underwriting_preset: async (input: unknown, call: Call) => ack(await doors.userState.upsertPreset(input, actorOf(call.caller))),
    add_note: async (input: unknown, call: Call) => ack(await doors.userState.addNote(input, actorOf(call.caller))),
    create_strategy_profile: createProfileOp,
    create_profile_rest: createProfileOp,
    update_map_filters: uiTool('update_map_filters'),
    fly_to_location: uiTool('fly_to_location'),
    highlight_properties: uiTool('highlight_properties'),
  };
}
