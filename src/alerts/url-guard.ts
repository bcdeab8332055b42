// Webhook URL guard (SSRF): http(s) only, no credentials, and every resolved address must be public unless the
// operator allows private targets. Run at profile creation and again at send time (DNS can change in between).
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AppError } from '../errors/app-error.js';
import { ALERTS } from '../registry/groups/alerts.js';

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Resolves a host name to every address (A and AAAA). Injectable so tests can simulate DNS answers. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const all = await dnsLookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

// Non-public ranges. IPv4: RFC 1122 "this network" 0/8, RFC 1918 private, RFC 6598 CGNAT, RFC 1122 loopback,
// RFC 3927 link-local, RFC 6890 IETF protocol 192.0.0/24, RFC 2544 benchmarking 198.18/15, multicast 224/4,
// reserved 240/4 (includes broadcast).
const V4_BLOCKS: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link_local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

function v4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function classifyV4(ip: string): string | null {
  const n = v4ToInt(ip);
  for (const [base, bits, label] of V4_BLOCKS) {
    const size = 2 ** (32 - bits);
    const start = v4ToInt(base);
    if (n >= start && n < start + size) return label;
  }
  return null;
}

/** 16 bytes of an IPv6 literal (handles `::` and an embedded dotted quad); null when unparsable. */
export function parseV6(ip: string): number[] | null {
  const zoneless = ip.split('%')[0];
  let head = zoneless;
  const tailV4: number[] = [];
  const lastColon = head.lastIndexOf(':');
  if (head.slice(lastColon + 1).includes('.')) {
    const quad = head.slice(lastColon + 1);
    if (isIP(quad) !== 4) return null;
    tailV4.push(...quad.split('.').map(Number));
    head = head.slice(0, lastColon + 1) + '0:0';
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const toGroups = (s: string): string[] => (s === '' ? [] : s.split(':'));
  const left = toGroups(halves[0]);
  const right = halves.length === 2 ? toGroups(halves[1]) : [];
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...left, ...Array(missing).fill('0'), ...right];
  const bytes: number[] = [];
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    const v = parseInt(g, 16);
    bytes.push(v >> 8, v & 0xff);
  }
  if (tailV4.length === 4) bytes.splice(12, 4, ...tailV4);
  return bytes;
}

function classifyV6(ip: string): string | null {
  const b = parseV6(ip);
  if (!b) return 'unparsable';
  const allZero = (from: number, to: number): boolean => b.slice(from, to).every((x) => x === 0);
  if (allZero(0, 16)) return 'unspecified';
  if (allZero(0, 15) && b[15] === 1) return 'loopback';
  // IPv4-mapped ::ffff:0:0/96 (RFC 4291) and NAT64 64:ff9b::/96 (RFC 6052): judge the embedded IPv4.
  const mapped = allZero(0, 10) && b[10] === 0xff && b[11] === 0xff;
  const nat64 = b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && allZero(4, 12);
  if (mapped || nat64) return classifyV4(b.slice(12).join('.'));
  if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return 'link_local'; // fe80::/10
  if ((b[0] & 0xfe) === 0xfc) return 'unique_local'; // fc00::/7 (RFC 4193)
  if (b[0] === 0xff) return 'multicast'; // ff00::/8
  return null;
}

/** Why an IP literal is not a public unicast address, or null when it is public. */
export function nonPublicReason(ip: string): string | null {
  const fam = isIP(ip.split('%')[0]);
  if (fam === 4) return classifyV4(ip);
  if (fam === 6) return classifyV6(ip);
  return 'not_an_ip';
}

export type GuardOptions = { allowPrivate: boolean; resolver?: HostResolver };
export type GuardedUrl = { url: URL; hostname: string; addresses: ResolvedAddress[] };

function refuse(message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError('webhook_url_refused', message, { details });
}

/** Parses and checks a webhook URL; resolves its host and refuses it if ANY address is non-public. */
export async function guardWebhookUrl(raw: string, opts: GuardOptions): Promise<GuardedUrl> {
  if (raw.length > ALERTS.v.max_url_chars) throw refuse('webhook URL is too long');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('webhook URL is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('webhook URL must use https or http', { protocol: url.protocol });
  if (url.username || url.password) throw refuse('webhook URL must not carry credentials');
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: ResolvedAddress[];
  if (isIP(hostname)) {
    addresses = [{ address: hostname, family: isIP(hostname) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (opts.resolver ?? systemResolver)(hostname);
    } catch (e) {
      throw refuse(`webhook host ${hostname} does not resolve`, { cause: (e as NodeJS.ErrnoException).code ?? 'dns_error' });
    }
  }
  if (addresses.length === 0) throw refuse(`webhook host ${hostname} has no address`);
  if (!opts.allowPrivate) {
    for (const a of addresses) {
      const reason = nonPublicReason(a.address);
      if (reason) throw refuse(`webhook host ${hostname} resolves to a non-public address (${reason})`, { address: a.address, reason });
    }
  }
  return { url, hostname, addresses };
}
