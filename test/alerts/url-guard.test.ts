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
