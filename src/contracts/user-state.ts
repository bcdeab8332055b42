// Inputs of the write tools that store user state (favorites, presets, notes). Values that become part of a store key
// are bounded; preset assumptions are the underwriting's own custom assumptions, validated as strictly as a call's.
import { z } from 'zod';
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import { CustomAssumptionsSchema } from './assumptions.js';
import { StrategySchema } from './common.js';

const NonEmpty = z.string().trim().min(1);
// Values that become part of an LMDB key are bounded: an over-long one must be a 400, not a store error (500).
// A refinement, not .max(): the published tool/OpenAPI schemas (snapshotted by the doors' tests) stay unchanged.
const KEY_MAX = AUTH_LIMITS.v.user_state_key_max_chars;
const KeyPart = NonEmpty.refine((s) => s.length <= KEY_MAX, { message: `at most ${KEY_MAX} characters` });
const JsonObject = z.record(z.string(), z.unknown());

export const FavoriteInputSchema = z.strictObject({ property_id: KeyPart.optional(), address: KeyPart.optional(), payload: JsonObject.optional() })
  .refine((v) => v.property_id !== undefined || v.address !== undefined, { message: 'property_id or address is required' });
/** A preset holds what a deep_underwrite_asset call would take: its custom_assumptions, strategy and horizon. */
export const PresetAssumptionsSchema = CustomAssumptionsSchema.extend({ strategy: StrategySchema.optional(), horizon_years: z.number().int().min(1).max(30).optional() });
export const PresetInputSchema = z.strictObject({ id: KeyPart.optional(), name: NonEmpty, assumptions: PresetAssumptionsSchema });
export const NoteInputSchema = z.strictObject({
  property_id: NonEmpty.optional(),
  entity_id: NonEmpty.optional(),
  body: z.string().min(1).max(AUTH_LIMITS.v.note_body_max_chars),
});
