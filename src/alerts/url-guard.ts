// Webhook URL guard (SSRF): http(s) only, no credentials, and every resolved address must be public unless the
// operator allows private targets. Run at profile creation and again at send time (DNS can change in between).
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors/app-error.js';
import { ALERTS } from '../registry/groups/alerts.js';

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Resolves a host name to every address (A and AAAA). Injectable so tests can simulate DNS answers. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = async (hostname) => {
  const all = await dnsLookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

// Address classes come from ipaddr.js (the IANA special-purpose registries as `range()`); an IPv6 address that carries
// an IPv4 one (IPv4-compatible, -mapped, -translated, NAT64, 6to4, Teredo) is judged by the IPv4 it reaches, so no
// spelling of 127.0.0.1 or 169.254.169.254 passes as public.

/** ipaddr.js range names → the reason labels this guard reports; other names are snake-cased (`deprecatedOrchid` → `deprecated_orchid`). */
const REASON: Readonly<Record<string, string>> = { linkLocal: 'link_local', carrierGradeNat: 'cgnat', uniqueLocal: 'unique_local', broadcast: 'reserved' };
const reasonOf = (range: string): string => REASON[range] ?? range.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const v4From = (hi: number, lo: number): ipaddr.IPv4 => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

function classifyV4(ip: ipaddr.IPv4): string | null {
  const range = ip.range();
  return range === 'unicast' ? null : reasonOf(range);
}

/** The IPv4 addresses an IPv6 address embeds, by its form; null when it embeds none. */
function embeddedV4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4[] | null {
  const p = ip.parts;
  switch (range) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d (RFC 4291)
    case 'rfc6145': // ::ffff:0:a.b.c.d (RFC 6145, IPv4-translated)
      return [v4From(p[6], p[7])];
    case '6to4': // 2002:<v4>::/48 (RFC 3056)
      return [v4From(p[1], p[2])];
    case 'teredo': // 2001:0:<server v4>:<flags>:<port>:<client v4 inverted> (RFC 4380)
      return [v4From(p[2], p[3]), v4From(p[6] ^ 0xffff, p[7] ^ 0xffff)];
    default:
      // ::a.b.c.d, IPv4-compatible (RFC 4291, deprecated); :: and ::1 have ranges of their own
      return range === 'unicast' && p.slice(0, 6).every((x) => x === 0) ? [v4From(p[6], p[7])] : null;
  }
}

function classifyV6(ip: ipaddr.IPv6): string | null {
  const range: string = ip.range(); // wider than the declared IPv6Range: ipaddr.js also answers deprecatedSiteLocal, discard...
  // 64:ff9b::/96 (RFC 6052) carries the IPv4 in its last 32 bits; the local-use 64:ff9b:1::/48 (RFC 8215) places it
  // by a prefix length only its operator knows, and its translator sits inside that network: refused whole.
  if (range === 'rfc6052') return ip.match(ipaddr.IPv6.parse('64:ff9b::'), 96) ? classifyV4(v4From(ip.parts[6], ip.parts[7])) : 'nat64_local';
  const embedded = embeddedV4(ip, range);
  if (embedded) return embedded.map(classifyV4).find((r) => r !== null) ?? null;
  // fec0::/10 site-local was deprecated and is to be treated as global unicast (RFC 3879).
  if (range === 'deprecatedSiteLocal') return null;
  if (range !== 'unicast') return reasonOf(range);
  // Global unicast is 2000::/3; the rest of the space is unallocated (IANA IPv6 Address Space).
  return ip.parts[0] >> 13 === 1 ? null : 'reserved';
}

/** 16 bytes of an IPv6 literal (`::` and an embedded dotted quad expanded, a zone id ignored); null when unparsable. */
export function parseV6(ip: string): number[] | null {
  const zoneless = ip.split('%')[0];
  return ipaddr.IPv6.isValid(zoneless) ? ipaddr.IPv6.parse(zoneless).toByteArray() : null;
}

/** Why an IP literal is not a public unicast address, or null when it is public. */
export function nonPublicReason(ip: string): string | null {
  const zoneless = ip.split('%')[0];
  const fam = isIP(zoneless);
  if (fam === 4) return classifyV4(ipaddr.IPv4.parse(zoneless));
  if (fam === 6) return classifyV6(ipaddr.IPv6.parse(zoneless));
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
