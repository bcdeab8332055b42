// Inputs of the write tools that store user state (favorites, presets, notes). Everything stored is bounded: values
// that become part of a store key, a favorite's payload (bytes and depth), names and ids; preset assumptions are the
// underwriting's own custom assumptions (a closed set of numbers), validated as strictly as a call's.
import { z } from 'zod';
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import { CustomAssumptionsSchema } from './assumptions.js';
import { StrategySchema } from './common.js';

const NonEmpty = z.string().trim().min(1);
// Values that become part of an LMDB key are bounded: an over-long one must be a 400, not a store error (500).
// A refinement, not .max(): the published tool/OpenAPI schemas (snapshotted by the doors' tests) stay unchanged.
const KEY_MAX = AUTH_LIMITS.v.user_state_key_max_chars;
const KeyPart = NonEmpty.refine((s) => s.length <= KEY_MAX, { message: `at most ${KEY_MAX} characters` });
const L = AUTH_LIMITS.v;
const Bounded = (max: number) => NonEmpty.refine((s) => s.length <= max, { message: `at most ${max} characters` });

/** Nesting depth of a JSON value (a scalar is 0), stopping once past `limit` so a hostile value costs little. */
function depthOver(v: unknown, limit: number, depth = 0): boolean {
  if (v === null || typeof v !== 'object') return false;
  if (depth >= limit) return true;
  return Object.values(v as object).some((x) => depthOver(x, limit, depth + 1));
}
/** A favorite's free-form payload: a JSON object at most favorite_payload_max_depth deep and _max_bytes long. */
const PayloadObject = z
  .record(z.string(), z.unknown())
  .refine((p) => !depthOver(p, L.favorite_payload_max_depth), { message: `nested more than ${L.favorite_payload_max_depth} levels`, abort: true })
  .refine((p) => Buffer.byteLength(JSON.stringify(p) ?? '', 'utf8') <= L.favorite_payload_max_bytes, { message: `longer than ${L.favorite_payload_max_bytes} bytes of JSON` });

export const FavoriteInputSchema = z.strictObject({
  property_id: KeyPart.optional().describe(`the property: a listing_id or a county parcel PIN, at most ${KEY_MAX} characters`),
  address: KeyPart.optional().describe(`street address in Cook or Lake County, IL, at most ${KEY_MAX} characters`),
  payload: PayloadObject.optional().describe(`free-form JSON object kept with the favorite, at most ${L.favorite_payload_max_bytes} bytes and ${L.favorite_payload_max_depth} levels deep`),
})
  .refine((v) => v.property_id !== undefined || v.address !== undefined, { message: 'property_id or address is required' });
/** A preset holds what a deep_underwrite_asset call would take: its custom_assumptions, strategy and horizon. */
export const PresetAssumptionsSchema = CustomAssumptionsSchema.extend({
  strategy: StrategySchema.optional().describe('strategy: flip, brrrr, hold or house_hack'),
  horizon_years: z.number().int().min(1).max(30).optional().describe('years of the cashflow projection, 1-30'),
}).describe('what a deep_underwrite_asset call would take: its custom_assumptions keys, strategy and horizon_years');
export const PresetInputSchema = z.strictObject({
  id: KeyPart.optional().describe('id of the preset to update; a new preset when omitted'),
  name: Bounded(L.preset_name_max_chars).describe(`preset name, 1-${L.preset_name_max_chars} characters; a preset of the same name is replaced`),
  assumptions: PresetAssumptionsSchema,
});
export const NoteInputSchema = z.strictObject({
  property_id: KeyPart.optional().describe('the property the note is about: a listing_id or a county parcel PIN'),
  entity_id: KeyPart.optional().describe('another record the note is about (a tract GEOID, a profile id, ...)'),
  body: z.string().min(1).max(AUTH_LIMITS.v.note_body_max_chars).describe(`note text, 1-${AUTH_LIMITS.v.note_body_max_chars} characters`),
});
