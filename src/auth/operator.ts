// The operator secret check (WRITE_SECRET) for operator-only endpoints, in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * True when the header is `Bearer <writeSecret>`. Both sides are hashed first so timingSafeEqual compares equal-length
 * digests and the secret's length does not leak; an unset secret (null) disables operator access entirely.
 */
export function isOperatorAuthorization(header: unknown, writeSecret: string | null): boolean {
  if (!writeSecret) return false;
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string' || value.length > 1024) return false;
  const m = /^Bearer +(\S+)$/i.exec(value.trim());
  if (!m) return false;
  const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(m[1]), digest(writeSecret));
}
