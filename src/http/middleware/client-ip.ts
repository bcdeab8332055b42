// The client address used for anonymous limits and audit: the socket peer, unless proxy trust is configured explicitly.
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/**
 * With `trustProxy` false (the default) `X-Forwarded-For` is ignored, so a forged header cannot move a caller into
 * a fresh bucket. With it true, the RIGHTMOST entry is used: it is the one our (single, trusted) proxy appended;
 * entries to its left were supplied by the client and can be anything.
 */
export function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const raw = req.headers['x-forwarded-for'];
    const joined = Array.isArray(raw) ? raw.join(',') : raw ?? '';
    const last = joined.split(',').map((s) => s.trim()).filter(Boolean).at(-1);
    if (last && isIP(normalizeIp(last))) return normalizeIp(last);
  }
  return normalizeIp(req.socket.remoteAddress ?? 'unknown');
}

/** Lower-cases and unwraps IPv4-mapped IPv6 (`::ffff:1.2.3.4` → `1.2.3.4`) so one client has one spelling. */
export function normalizeIp(ip: string): string {
  const lower = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  return mapped ? mapped[1] : lower;
}

/**
 * The bucket an address is counted in: an IPv4 address itself, an IPv6 address by its /64 prefix, because one
 * subscriber is routinely handed a whole /64 and could otherwise rotate addresses to escape the anonymous limit.
 */
export function rateSubjectForIp(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const groups = expandIpv6(ip);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : ip;
}

function expandIpv6(ip: string): string[] | null {
  const noZone = ip.split('%')[0];
  const [head, tail] = noZone.includes('::') ? noZone.split('::') : [noZone, null];
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (e.g. 64:ff9b::1.2.3.4) counts as two groups; only the first four groups matter here.
  const width = (parts: string[]): number => parts.reduce((n, p) => n + (p.includes('.') ? 2 : 1), 0);
  const missing = 8 - width(headParts) - width(tailParts);
  if (tail === null && missing !== 0) return null;
  const all = [...headParts, ...Array<string>(Math.max(0, missing)).fill('0'), ...tailParts];
  return all.map((g) => (g.includes('.') ? g : g.padStart(4, '0')));
}
