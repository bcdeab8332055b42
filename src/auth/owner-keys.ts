// The owner's self-serve keys (spec, Authentication 7; issue 16 item 2), over the one key store and the audit.
// Rules, each decided here once for the API and the keys page:
// - the owner is the caller's key's owner (the root of its rotation chain, or the owner an OAuth consent or a
//   self-serve creation recorded); a key stored without an owner is its own owner, so an operator-issued key is an
//   owner with that one key until it creates more;
// - another owner's key id is answered exactly like an unknown id (404 not_found), so ids are never confirmed;
// - managing keys needs an API key presented directly: an OAuth access token (a client the owner approved for read
//   and underwrite) may not list, create, rotate or revoke keys (403 forbidden_scope);
// - no key yields a secret carrying more than the presenting key: a new key's scopes, and a rotated key's, must be
//   among the presenting key's (403 forbidden_scope); revoking, listing and reading audit records narrow nothing;
// - keys an OAuth consent minted are listed and revocable, not rotatable (their client holds tokens, not the key;
//   rotating would hand the owner a secret the consent never showed); a label may not pose as one (`oauth:`).
import { OAUTH_LABEL_PREFIX, type KeyView } from '../contracts/my-keys.js';
import { AppError } from '../errors/app-error.js';
import { AUTH_LIMITS } from '../registry/groups/auth.js';
import { retentionCutoff, type Audit } from './audit.js';
import type { Caller } from './authorize.js';
import type { AuditRecord } from './audit-batch.js';
import type { ApiKey, KeyStore } from './keys.js';
import { parseScopes, type Scope } from './scopes.js';


export type Issued = { key: KeyView; secret: string; revoked_key_id: string | null };
export type AuditPage = { retention_months: number; since: string; records: AuditRecord[]; truncated: boolean };

type Deps = { keys: KeyStore; audit: Pick<Audit, 'latestFor'>; now: () => number };

const isOauthKey = (k: ApiKey): boolean => (k.label ?? '').startsWith(OAUTH_LABEL_PREFIX);

/** The caller's key, when it may manage keys: a valid API key presented directly. */
function presenterOf(caller: Caller): ApiKey {
  if (caller.kind !== 'key') throw new AppError('unauthorized', 'managing keys needs one of your API keys');
  if (caller.viaToken) throw new AppError('forbidden_scope', 'managing keys needs one of your API keys presented directly, not an OAuth access token');
  return caller.key;
}

function withinPresenter(presenter: ApiKey, scopes: readonly Scope[]): void {
  const beyond = scopes.filter((s) => !presenter.scopes.includes(s));
  if (beyond.length > 0) {
    throw new AppError('forbidden_scope', `the key making this request lacks scope ${beyond.map((s) => `"${s}"`).join(', ')}; a key can only give out scopes it holds`, { details: { required_scope: beyond[0], key_scopes: presenter.scopes } });
  }
}

export function ownerKeys(deps: Deps) {
  const sinceIso = (): string => retentionCutoff(deps.now()).toISOString();
  const ownerKeyList = async (owner: string): Promise<ApiKey[]> => deps.keys.listOwnerKeys(owner);
  const view = async (k: ApiKey): Promise<KeyView> => ({
    id: k.id, label: k.label, scopes: k.scopes, rpm_limit: k.rpm_limit, created_at: k.created_at,
    last_used_at: (await deps.audit.latestFor(k.id, sinceIso(), 1))[0]?.at ?? null, revoked_at: k.revoked_at, rotated_from: k.rotated_from, oauth: isOauthKey(k),
  });
  /** The owner's key `id`; another owner's key and an unknown id answer the same 404. */
  const ownedKey = async (owner: string, id: string): Promise<ApiKey> => {
    const k = await deps.keys.getKey(id);
    if (!k || k.owner_id !== owner) throw new AppError('not_found', `you have no key with id "${id}"`);
    return k;
  };
  const ownerOfCaller = (caller: Caller): { presenter: ApiKey; owner: string } => {
    const presenter = presenterOf(caller);
    return { presenter, owner: presenter.owner_id ?? presenter.id };
  };
  return {
    async list(caller: Caller): Promise<{ owner: string; keys: KeyView[] }> {
      const { owner } = ownerOfCaller(caller);
      return { owner, keys: await Promise.all((await ownerKeyList(owner)).map(view)) };
    },
    async create(caller: Caller, input: { scopes: readonly string[]; label?: string }): Promise<Issued> {
      const { presenter, owner } = ownerOfCaller(caller);
      const scopes = parseScopes(input.scopes);
      withinPresenter(presenter, scopes);
      if (input.label?.toLowerCase().startsWith(OAUTH_LABEL_PREFIX)) throw new AppError('validation_failed', `a label may not start with "${OAUTH_LABEL_PREFIX}": that names keys an OAuth consent minted`);
      const active = (await ownerKeyList(owner)).filter((k) => !k.revoked_at).length;
      if (active >= AUTH_LIMITS.v.owner_max_active_keys) throw new AppError('key_limit_reached', `you hold ${active} active keys, the most allowed (${AUTH_LIMITS.v.owner_max_active_keys}); revoke one first`);
      // The new key inherits the presenting key's rate limit: never more than the owner was given.
      const issued = await deps.keys.createKey({ scopes, label: input.label, ownerId: owner, rpmLimit: presenter.rpm_limit });
      return { key: await view(issued.key), secret: issued.plaintext, revoked_key_id: null };
    },
    async rotate(caller: Caller, id: string): Promise<Issued> {
      const { presenter, owner } = ownerOfCaller(caller);
      const old = await ownedKey(owner, id);
      if (isOauthKey(old)) throw new AppError('key_not_rotatable', `key "${id}" was minted by an OAuth consent: revoke it (its client then signs in again), it cannot be rotated`);
      withinPresenter(presenter, old.scopes);
      const issued = await deps.keys.rotateKey(old.id);
      return { key: await view(issued.key), secret: issued.plaintext, revoked_key_id: old.id };
    },
    async revoke(caller: Caller, id: string): Promise<{ key: KeyView }> {
      const { owner } = ownerOfCaller(caller);
      return { key: await view(await deps.keys.revokeKey((await ownedKey(owner, id)).id)) };
    },
    async audit(caller: Caller, q: { key_id?: string; limit: number }): Promise<AuditPage> {
      const { owner } = ownerOfCaller(caller);
      const ids = q.key_id !== undefined ? [(await ownedKey(owner, q.key_id)).id] : (await ownerKeyList(owner)).map((k) => k.id);
      const since = sinceIso();
      // each key's newest `limit + 1`, merged newest first: the merged first `limit` are exact, and one more says "truncated"
      const all = (await Promise.all(ids.map((id) => deps.audit.latestFor(id, since, q.limit + 1)))).flat().sort((a, b) => b.at.localeCompare(a.at));
      return { retention_months: AUTH_LIMITS.v.audit_retention_months, since, records: all.slice(0, q.limit), truncated: all.length > q.limit };
    },
  };
}
export type OwnerKeys = ReturnType<typeof ownerKeys>;
