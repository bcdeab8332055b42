// An OAuth access token presented as `Bearer <token>`, checked on use and mapped to the API key its consent minted:
// unknown or expired → invalid_token; issued for another resource than the one called (RFC 8707) → wrong_resource;
// its key revoked → revoked. A valid token acts as its key, narrowed to the scopes the token carries.
import type Provider from 'oidc-provider';
import { AUTH_LIMITS } from '../../registry/groups/auth.js';
import { KEY_PREFIX, type KeyStore, type VerifyResult } from '../keys.js';

const BEARER_RE = /^Bearer +(\S+)$/i;

/** The token of a Bearer header that is not an API key (`avm_…`), else null (the key check handles it). */
export function oauthTokenOf(header: unknown): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string' || value.length > AUTH_LIMITS.v.max_authorization_header_chars) return null;
  const m = BEARER_RE.exec(value.trim());
  return m && !m[1].startsWith(KEY_PREFIX) ? m[1] : null;
}

/** `expectedAudience`: the resource identifier of the door being called. Never throws. */
export async function verifyAccessToken(provider: Provider, keys: Pick<KeyStore, 'getKey'>, token: string, expectedAudience: string): Promise<VerifyResult> {
  let at: InstanceType<Provider['AccessToken']> | undefined;
  try {
    at = (await provider.AccessToken.find(token)) ?? undefined;
  } catch {
    at = undefined; // a value oidc-provider cannot even parse is as unknown as any other
  }
  if (!at || at.isExpired) return { ok: false, reason: 'invalid_token' };
  const audiences = Array.isArray(at.aud) ? at.aud : at.aud ? [at.aud] : [];
  if (!audiences.includes(expectedAudience)) return { ok: false, reason: 'wrong_resource' };
  const keyId = at.extra?.avm_key;
  const key = typeof keyId === 'string' ? await keys.getKey(keyId) : null;
  if (!key) return { ok: false, reason: 'invalid_token' };
  if (key.revoked_at) return { ok: false, reason: 'revoked' };
  const granted = new Set((at.scope ?? '').split(' '));
  return { ok: true, key: { ...key, scopes: key.scopes.filter((s) => granted.has(s)) } };
}
