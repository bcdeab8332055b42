// The record kinds of the map sync stream (GET /api/events), who appends them, and who may see them: map-control
// records are public (the open map follows them); user-state records reach only their owner's key (DESIGN, One owner).
import { z } from 'zod';

/**
 * Write tools (payload = the durable record as stored):
 * - `favorite_saved` (save_favorite_property), `preset_updated` (update_underwriting_preset),
 *   `strategy_profile_created` (create_strategy_profile, POST /api/me/profiles; appended by src/alerts), `note_added` (add_note).
 * UI-controller tools (payload = the tool input, not stored elsewhere):
 * - `map_filters_updated` (update_map_filters), `fly_to` (fly_to_location), `highlight` (highlight_properties).
 */
export const EVENT_KINDS = [
  'favorite_saved',
  'preset_updated',
  'strategy_profile_created',
  'note_added',
  'map_filters_updated',
  'fly_to',
  'highlight',
] as const;

export const EventKindSchema = z.enum(EVENT_KINDS);
export type EventKind = z.infer<typeof EventKindSchema>;

/** The UI-controller kinds: anyone may see them. Every other kind is user state and private to its owner. */
export const PUBLIC_EVENT_KINDS: ReadonlySet<EventKind> = new Set(['map_filters_updated', 'fly_to', 'highlight']);

/**
 * One stream record. `id` is the stream sequence (SSE `id:`), `at` an ISO timestamp, `actor` `key:<id>` or
 * `anonymous`; `owner` (user-state records) the owner of the state it reports.
 */
export const EventRecordSchema = z.object({
  id: z.number().int().positive(),
  kind: EventKindSchema,
  at: z.string(),
  actor: z.string(),
  owner: z.string().optional(),
  payload: z.unknown(),
});
export type EventRecord = z.infer<typeof EventRecordSchema>;

/**
 * Whether a viewer (an owner, or null for a caller without a key) may see a record. A user-state record stored before
 * records named their owner is its actor's: the owner for any key never rotated.
 */
export function isVisibleTo(rec: Pick<EventRecord, 'kind' | 'actor' | 'owner'>, viewerOwner: string | null): boolean {
  if (PUBLIC_EVENT_KINDS.has(rec.kind)) return true;
  return viewerOwner !== null && (rec.owner ?? rec.actor) === viewerOwner;
}

/** Which record each tool appends, so the MCP and REST doors do not spell kinds themselves. */
export const TOOL_EVENT_KIND = {
  save_favorite_property: 'favorite_saved',
  update_underwriting_preset: 'preset_updated',
  create_strategy_profile: 'strategy_profile_created',
  add_note: 'note_added',
  update_map_filters: 'map_filters_updated',
  fly_to_location: 'fly_to',
  highlight_properties: 'highlight',
} as const satisfies Record<string, EventKind>;
