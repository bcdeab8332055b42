import { describe, expect, it } from 'vitest';
import { guardWebhookUrl, nonPublicReason, parseV6, type HostResolver } from '../../src/alerts/url-guard.js';
import { AppError } from '../../src/errors/app-error.js';

const dns = (table: Record<string, string[]>): HostResolver => async (host) => {
  const addrs = table[host];
  if (!addrs) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

async function refusal(url: string, resolver?: HostResolver): Promise<AppError> {
  const e = await guardWebhookUrl(url, { allowPrivate: false, resolver }).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(AppError);
  expect((e as AppError).code).toBe('webhook_url_refused');
  return e as AppError;
}

describe('nonPublicReason(ip)', () => {
  it.each([
    ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'],
    ['100.64.0.1', 'cgnat'], ['100.127.255.254', 'cgnat'], ['127.0.0.1', 'loopback'], ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'link_local'], ['0.0.0.0', 'unspecified'], ['224.0.0.1', 'multicast'], ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'], ['::', 'unspecified'], ['fe80::1', 'link_local'], ['febf::1', 'link_local'], ['fc00::1', 'unique_local'],
    ['fd12:3456::1', 'unique_local'], ['ff02::1', 'multicast'], ['::ffff:10.0.0.1', 'private'], ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link_local'], ['64:ff9b::192.168.0.1', 'private'], ['fe80::1%eth0', 'link_local'],
  ])('%s is %s', (ip, reason) => {
    expect(nonPublicReason(ip)).toBe(reason);
  });
  it.each(['8.8.8.8', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.0', '2606:4700::1111', '::ffff:8.8.8.8', 'fec0::1'])(
    '%s is public',
    (ip) => expect(nonPublicReason(ip)).toBeNull(),
  );
  it('parses embedded dotted quads and :: expansion into 16 bytes', () => {
    expect(parseV6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4]);
    expect(parseV6('1::')?.slice(0, 2)).toEqual([0, 1]);
    expect(parseV6('1:2:3:4:5:6:7:8:9')).toBeNull();
  });
});

describe('guardWebhookUrl(url, opts)', () => {
  it('accepts a public https host and returns every resolved address', async () => {
    const g = await guardWebhookUrl('https://hooks.example.com/x', { allowPrivate: false, resolver: dns({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'] }) });
    expect(g.addresses.map((a) => a.address)).toEqual(['93.184.216.34', '2606:2800:220:1::1']);
  });
  it('refuses non-http schemes, credentials and garbage', async () => {
    await refusal('ftp://hooks.example.com/x');
    await refusal('file:///etc/passwd');
    await refusal('https://user:pw@hooks.example.com/x');
    await refusal('not a url');
  });
  it('refuses IP literals in private, loopback and link-local ranges, including bracketed IPv6 and mapped IPv4', async () => {
    for (const u of ['http://127.0.0.1:8080/', 'http://10.0.0.5/', 'http://169.254.169.254/latest', 'http://[::1]/', 'http://[::ffff:192.168.0.1]/', 'http://[fd00::2]/']) {
      await refusal(u);
    }
  });
  it('refuses a host when ANY of its addresses is private (mixed answers are a rebinding trick)', async () => {
    const e = await refusal('https://evil.example/x', dns({ 'evil.example': ['93.184.216.34', '10.0.0.7'] }));
    expect(e.details).toMatchObject({ address: '10.0.0.7', reason: 'private' });
  });
  it('refuses a host that does not resolve', async () => {
    await refusal('https://nowhere.example/x', dns({}));
  });
  it('allows loopback when the operator setting allows private targets', async () => {
    const g = await guardWebhookUrl('http://127.0.0.1:9/x', { allowPrivate: true });
    expect(g.addresses).toEqual([{ address: '127.0.0.1', family: 4 }]);
  });
});

// Issue 13 defect 8: IPv6 spellings that carry a private or loopback IPv4 (IPv4-compatible, IPv4-translated,
// 6to4, Teredo, NAT64 local-use) were accepted as public webhook hosts, as literals and as DNS answers.
describe('IPv6 forms that embed a non-public IPv4', () => {
  const EMBEDDED = [
    ['::127.0.0.1', 'loopback'], // IPv4-compatible (RFC 4291, deprecated), dotted
    ['::7f00:1', 'loopback'], // the same, hex
    ['::169.254.169.254', 'link_local'],
    ['2002:7f00:1::', 'loopback'], // 6to4 (RFC 3056): 2002:<v4>::/48
    ['2002:a9fe:a9fe::', 'link_local'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'], // Teredo (RFC 4380): client address inverted in the last 32 bits
    ['::ffff:0:127.0.0.1', 'loopback'], // IPv4-translated (RFC 6145)
    ['64:ff9b:1::a9fe:a9fe', 'nat64_local'], // local-use NAT64 (RFC 8215): the translator sits inside our network
  ] as const;

  it.each(EMBEDDED)('%s is refused (%s)', (ip, reason) => {
    expect(nonPublicReason(ip)).toBe(reason);
  });

  it('refuses each as a bracketed URL literal', async () => {
    for (const [ip, reason] of EMBEDDED) {
      const e = await refusal(`http://[${ip}]/hook`);
      expect(e.details, ip).toMatchObject({ reason });
    }
  });

  it('refuses each as a DNS answer', async () => {
    for (const [ip, reason] of EMBEDDED) {
      const e = await refusal('https://rebind.example/hook', dns({ 'rebind.example': [ip] }));
      expect(e.details, ip).toMatchObject({ address: ip, reason });
    }
  });

  it('a Teredo address is refused when its server is not public, even with a public client', () => {
    // server 10.0.0.1 (0a00:0001), client 8.8.8.8 inverted (f7f7:f7f7)
    expect(nonPublicReason('2001:0:a00:1::f7f7:f7f7')).toBe('private');
  });

  it.each(['2002:808:808::1', '64:ff9b::8.8.8.8', '2001:0:4136:e378:8000:63bf:f7f7:f7f7', '2a00:1450:4001:80b::200e'])(
    '%s (embedding a public IPv4, or plain global unicast) stays public',
    (ip) => expect(nonPublicReason(ip)).toBeNull(),
  );

  it.each([
    ['100::1', 'discard'], ['2001:db8::1', 'reserved'], ['3fff::1', 'reserved'], ['2001:2::1', 'benchmarking'],
    ['::1:2:3:4:5', 'reserved'], ['4000::1', 'reserved'], ['192.0.2.1', 'reserved'], ['198.51.100.7', 'reserved'],
  ])('%s is refused as %s (special-purpose or unallocated)', (ip, reason) => {
    expect(nonPublicReason(ip)).toBe(reason);
  });
});
