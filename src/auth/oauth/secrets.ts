// The authorization server's own secrets, made once and kept in the `oauth` sub-database so a restart keeps cookies,
// consent-form tokens and the published signing key valid: a cookie-signing key and an RSA signing key (JWKS; the
// access tokens are opaque, so it signs nothing a resource server checks, but oidc-provider publishes one).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { RootDatabase } from 'lmdb';
import { DB_NAMES, openSubDb } from '../../store/env.js';

export type ServerSecrets = { cookieKey: string; signingJwk: Record<string, unknown> };

const SECRETS_KEY = 'secrets:v1';

/** New secrets: a random cookie key and an RSA signing key (JWK). */
export function newServerSecrets(): ServerSecrets {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    cookieKey: randomBytes(32).toString('base64url'),
    signingJwk: { ...(privateKey.export({ format: 'jwk' }) as Record<string, unknown>), use: 'sig', alg: 'RS256', kid: randomBytes(8).toString('hex') },
  };
}

export async function loadOrCreateSecrets(env: RootDatabase): Promise<ServerSecrets> {
  const db = openSubDb<ServerSecrets>(env, DB_NAMES.oauth);
  const stored = db.get(SECRETS_KEY);
  if (stored) return stored;
  const secrets = newServerSecrets();
  // ifNoExists: two processes starting at once on one data dir agree on the first secrets written.
  await db.ifNoExists(SECRETS_KEY, () => db.put(SECRETS_KEY, secrets));
  return db.get(SECRETS_KEY) ?? secrets;
}
