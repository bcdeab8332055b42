// Alert profiles (spec, Events: alert profile): the strict input schema, storage under user_state `profile:<id>`,
// and the public view. The webhook secret is stored (it keys every signature) but never echoed, logged or put in errors.
import { randomUUID } from 'node:crypto';
import { ProfileInputSchema, type ProfileInput } from '../contracts/profile.js';
import { AppError } from '../errors/app-error.js';
import { ALERTS } from '../registry/groups/alerts.js';
import { flushed, KEY_PREFIX, valuesWithPrefix, type AlertStore } from './store.js';
import { guardWebhookUrl, type HostResolver } from './url-guard.js';

export { BboxSchema, ChannelsSchema, CriteriaSchema, ProfileInputSchema, WebhookChannelSchema, type ProfileInput } from '../contracts/profile.js';

export type StoredProfile = Omit<ProfileInput, 'id'> & { id: string; owner_id: string; active: boolean; created_at: string; updated_at: string };

/** What callers may see: the webhook secret is replaced by a flag. */
export type PublicProfile = Omit<StoredProfile, 'channels'> & {
  channels: { telegram?: boolean; webhook?: { url: string; secret_set: true } };
};

export function publicProfile(p: StoredProfile): PublicProfile {
  const { webhook, ...rest } = p.channels;
  return { ...p, channels: { ...rest, ...(webhook ? { webhook: { url: webhook.url, secret_set: true as const } } : {}) } };
}

/** Scopes a caller needs to store this profile: webhook channels are guarded by `webhooks` (spec, Authentication). */
export function requiredScopes(input: ProfileInput): Array<'write-state' | 'webhooks'> {
  return input.channels.webhook ? ['write-state', 'webhooks'] : ['write-state'];
}

/** Validates untrusted input; issue messages carry paths only, never input values (a secret could be one). */
export function parseProfileInput(input: unknown): ProfileInput {
  const r = ProfileInputSchema.safeParse(input);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw new AppError('validation_failed', `invalid alert profile: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`, { details: { issues } });
}

export type CreateProfileOptions = { ownerId: string; allowPrivate: boolean; resolver?: HostResolver; now?: Date };

/** Validates, checks the webhook URL (SSRF guard), and stores durably. Re-posting an id you own replaces it. */
export async function createProfile(store: AlertStore, input: unknown, opts: CreateProfileOptions): Promise<PublicProfile> {
  const parsed = parseProfileInput(input);
  if (parsed.channels.webhook) await guardWebhookUrl(parsed.channels.webhook.url, { allowPrivate: opts.allowPrivate, resolver: opts.resolver });
  const id = parsed.id ?? randomUUID();
  const existing = getProfile(store, id);
  if (existing && existing.owner_id !== opts.ownerId) throw new AppError('validation_failed', `profile id ${id} is already taken`);
  if (!existing && listProfiles(store, opts.ownerId).length >= ALERTS.v.max_profiles_per_owner) {
    throw new AppError('validation_failed', `at most ${ALERTS.v.max_profiles_per_owner} alert profiles per owner`);
  }
  const nowIso = (opts.now ?? new Date()).toISOString();
  const stored: StoredProfile = {
    ...parsed,
    id,
    owner_id: opts.ownerId,
    active: true,
    created_at: existing?.created_at ?? nowIso,
    updated_at: nowIso,
  };
  await store.userState.put(KEY_PREFIX.profile + id, stored);
  await flushed(store);
  return publicProfile(stored);
}

export function getProfile(store: AlertStore, id: string): StoredProfile | undefined {
  return store.userState.get(KEY_PREFIX.profile + id) as StoredProfile | undefined;
}

export function listProfiles(store: AlertStore, ownerId?: string): StoredProfile[] {
  const all = valuesWithPrefix<StoredProfile>(store.userState, KEY_PREFIX.profile);
  return ownerId === undefined ? all : all.filter((p) => p.owner_id === ownerId);
}

export function listActiveProfiles(store: AlertStore): StoredProfile[] {
  return listProfiles(store).filter((p) => p.active);
}

/** Pauses or resumes a profile (owner only); a paused profile is not matched. */
export async function setProfileActive(store: AlertStore, id: string, ownerId: string, active: boolean): Promise<PublicProfile> {
  const p = getProfile(store, id);
  if (!p || p.owner_id !== ownerId) throw new AppError('not_found', `no alert profile ${id}`);
  const next: StoredProfile = { ...p, active, updated_at: new Date().toISOString() };
  await store.userState.put(KEY_PREFIX.profile + id, next);
  await flushed(store);
  return publicProfile(next);
}
