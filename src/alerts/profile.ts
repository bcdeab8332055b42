// Alert profiles (spec, Events: alert profile): the strict input schema, storage per owner (kind `profile` of the owned
// user state), and the public view. The webhook secret is stored (it keys every signature) but never echoed, logged or
// put in errors. A profile id is its owner's: another owner's profile of the same id is a separate record.
import { randomUUID } from 'node:crypto';
import { ProfileInputSchema, type ProfileInput } from '../contracts/profile.js';
import { AppError } from '../errors/app-error.js';
import type { EventRecord } from '../events/kinds.js';
import type { AppendInput } from '../events/log.js';
import type { Owned } from '../events/owned-records.js';
import { ALERTS } from '../registry/groups/alerts.js';
import type { AlertStore } from './store.js';
import { guardWebhookUrl, type HostResolver } from './url-guard.js';

export { BboxSchema, ChannelsSchema, CriteriaSchema, ProfileInputSchema, WebhookChannelSchema, type ProfileInput } from '../contracts/profile.js';

/**
 * `ref` names the profile across owners (`<owner>/<id>`; a profile stored before ids were per owner keeps its old id):
 * outbox records, dedupe and digest marks are keyed by it, so two owners' profiles of one id never share alert state.
 */
export type StoredProfile = Owned<Omit<ProfileInput, 'id'> & { id: string; ref: string; active: boolean; created_at: string; updated_at: string }>;

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

/** Checks a parsed profile's webhook URL (SSRF guard; may resolve DNS), before its transaction opens. */
export async function guardProfileWebhook(parsed: ProfileInput, opts: Pick<CreateProfileOptions, 'allowPrivate' | 'resolver'>): Promise<void> {
  if (parsed.channels.webhook) await guardWebhookUrl(parsed.channels.webhook.url, { allowPrivate: opts.allowPrivate, resolver: opts.resolver });
}

/**
 * Stores a parsed profile: the owner's cap check and the write are one transaction, so concurrent creates cannot both
 * pass the check. Re-posting an id the owner holds replaces it (keeping created_at); validation_failed past the cap.
 * `event`: the stream record committed with it (the doors append `strategy_profile_created`).
 */
export async function writeProfile(store: AlertStore, parsed: ProfileInput, o: { ownerId: string; now?: Date; event?: (p: StoredProfile) => AppendInput }): Promise<{ profile: StoredProfile; event: EventRecord | null }> {
  const id = parsed.id ?? randomUUID();
  const nowIso = (o.now ?? new Date()).toISOString();
  const { value, event } = await store.owned.write<Omit<StoredProfile, 'owner_id' | 'seq'>>({
    kind: 'profile',
    owner: o.ownerId,
    id,
    build: (existing) => ({ ...parsed, id, ref: existing?.ref ?? `${o.ownerId}/${id}`, active: true, created_at: existing?.created_at ?? nowIso, updated_at: nowIso }),
    cap: { max: ALERTS.v.max_profiles_per_owner, refusal: () => new AppError('validation_failed', `at most ${ALERTS.v.max_profiles_per_owner} alert profiles per owner`) },
    event: o.event ? (p) => o.event!(p as StoredProfile) : undefined,
  });
  return { profile: value as StoredProfile, event };
}

/** Validates, checks the webhook URL, then checks and stores in one transaction, durably. */
export async function createProfile(store: AlertStore, input: unknown, opts: CreateProfileOptions): Promise<PublicProfile> {
  const parsed = parseProfileInput(input);
  await guardProfileWebhook(parsed, opts);
  return publicProfile((await writeProfile(store, parsed, opts)).profile);
}

export async function getProfile(store: AlertStore, ownerId: string, id: string): Promise<StoredProfile | undefined> {
  return store.owned.get<StoredProfile>('profile', ownerId, id);
}

/**
 * The profile an outbox record names. A ref with `/` is `<owner>/<id>`; a bare one is a profile stored before ids were
 * per owner (its ref is its old id), else the one profile of that id (an alert queued by hand, e.g. a test).
 */
export async function profileByRef(store: AlertStore, ref: string): Promise<StoredProfile | undefined> {
  const cut = ref.lastIndexOf('/');
  if (cut > 0) return getProfile(store, ref.slice(0, cut), ref.slice(cut + 1));
  const all = await listProfiles(store);
  const legacy = all.find((p) => p.ref === ref);
  if (legacy) return legacy;
  const byId = all.filter((p) => p.id === ref);
  return byId.length === 1 ? byId[0] : undefined;
}

/** The owner's profiles, or every owner's when no owner is given (the matcher walks them all). */
export async function listProfiles(store: AlertStore, ownerId?: string): Promise<StoredProfile[]> {
  return ownerId === undefined ? store.owned.listKind<StoredProfile>('profile') : store.owned.list<StoredProfile>('profile', ownerId);
}

export async function listActiveProfiles(store: AlertStore): Promise<StoredProfile[]> {
  return (await listProfiles(store)).filter((p) => p.active);
}

/** Pauses or resumes a profile (owner only); a paused profile is not matched. */
export async function setProfileActive(store: AlertStore, id: string, ownerId: string, active: boolean): Promise<PublicProfile> {
  const { value } = await store.owned.write<StoredProfile>({
    kind: 'profile',
    owner: ownerId,
    id,
    build: (p) => {
      if (!p) throw new AppError('not_found', `no alert profile ${id}`);
      return { ...p, active, updated_at: new Date().toISOString() };
    },
  });
  return publicProfile(value);
}
