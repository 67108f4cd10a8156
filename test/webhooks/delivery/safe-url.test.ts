import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, parseAllowHosts, type ResolvedAddress } from '../../../src/webhooks/delivery/safe-url.js';

const noAllow = { allowHosts: [] };
/** A resolver answering fixed addresses, standing in for DNS we do not control. */
const resolvesTo =
  (...addresses: string[]) =>
  async (): Promise<ResolvedAddress[]> =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

async function reasonFor(url: string, opts: Parameters<typeof checkWebhookUrl>[1] = noAllow): Promise<string> {
  const result = await checkWebhookUrl(url, opts);
  if (result.ok) throw new Error(`expected ${url} to be refused, it was accepted (${result.address})`);
  return result.reason;
}

describe('checkWebhookUrl: IP literals that are not public', () => {
  it.each([
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://127.1/hook', 'loopback'],
    ['https://2130706433/hook', 'loopback'],
    ['https://0x7f.1/hook', 'loopback'],
    ['https://0x7f000001/hook', 'loopback'],
    ['https://0177.0.0.1/hook', 'loopback'],
    ['https://017700000001/', 'loopback'],
    ['https://0/', 'this network'],
    ['https://0.0.0.0/', 'this network'],
    ['https://10.0.0.5/', 'private'],
    ['https://172.20.1.1/', 'private'],
    ['https://192.168.0.1:8443/', 'private'],
    ['https://0xc0.0xa8.1.1/', 'private'],
    ['https://3232235777/', 'private'],
    ['https://100.64.1.1/', 'CGNAT'],
    ['https://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['https://0xa9fea9fe/', 'cloud metadata'],
    ['https://198.18.0.1/', 'benchmarking'],
    ['https://192.0.2.1/', 'documentation'],
    ['https://224.0.0.1/', 'multicast'],
    ['https://255.255.255.255/', 'broadcast'],
    ['https://[::1]/', 'loopback'],
    ['https://[::]/', 'unspecified'],
    ['https://[0:0:0:0:0:0:0:1]/', 'loopback'],
    ['https://[::ffff:127.0.0.1]/', 'IPv4-mapped loopback'],
    ['https://[::ffff:7f00:1]/', 'IPv4-mapped loopback'],
    ['https://[::ffff:169.254.169.254]/', 'IPv4-mapped cloud metadata'],
    ['https://[::ffff:10.0.0.1]/', 'IPv4-mapped private'],
    ['https://[::127.0.0.1]/', 'IPv4-compatible loopback'],
    ['https://[64:ff9b::10.0.0.1]/', 'NAT64 private'],
    ['https://[fd00:ec2::254]/', 'cloud metadata'],
    ['https://[fe80::1]/', 'link-local'],
    ['https://[fc00::1]/', 'unique local'],
    ['https://[fec0::1]/', 'site-local'],
    ['https://[ff02::1]/', 'multicast'],
    ['https://[2001:db8::1]/', 'documentation'],
    ['https://[2002:7f00:1::1]/', '6to4'],
    ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'Teredo'],
  ])('refuses %s (%s)', async (url, kind) => {
    const reason = await reasonFor(url);
    expect(reason).toContain('not a public address');
    expect(reason).toContain(kind);
  });

  it('accepts a public IP literal and returns it as the address to connect to', async () => {
    const result = await checkWebhookUrl('https://1.1.1.1/hook?x=1', noAllow);
    expect(result).toMatchObject({ ok: true, address: '1.1.1.1', family: 4 });
    const v6 = await checkWebhookUrl('https://[2606:4700:4700::1111]:8443/', noAllow);
    expect(v6).toMatchObject({ ok: true, address: '2606:4700:4700::1111', family: 6 });
  });
});

describe('checkWebhookUrl: URL shape', () => {
  it.each([
    ['http://example.com/hook', 'must use https'],
    ['ftp://example.com/', 'must use https'],
    ['HTTP://1.1.1.1/', 'must use https'],
    ['https://user:pass@example.com/', 'user name or password'],
    ['https://user@example.com/', 'user name or password'],
    ['https://:pass@example.com/', 'user name or password'],
    ['not a url', 'not a valid absolute URL'],
    ['/relative/path', 'not a valid absolute URL'],
    ['https://', 'not a valid absolute URL'],
    ['', 'missing'],
    [`https://example.com/${'a'.repeat(2030)}`, 'longer than 2048'],
  ])('refuses %j', async (url, reason) => {
    expect(await reasonFor(url, { allowHosts: ['example.com', '1.1.1.1'], lookup: resolvesTo('93.184.216.34') })).toContain(reason);
  });

  it('accepts a URL of exactly 2048 characters', async () => {
    const base = 'https://example.com/';
    const url = base + 'a'.repeat(2048 - base.length);
    const result = await checkWebhookUrl(url, { allowHosts: [], lookup: resolvesTo('93.184.216.34') });
    expect(result.ok).toBe(true);
  });

  it('gives reasons that read as sentences for a 400 error', async () => {
    expect(await reasonFor('http://example.com/')).toMatch(/^[A-Z].*\.$/);
    expect(await reasonFor('https://10.0.0.1/')).toMatch(/^[A-Z].*\.$/);
  });
});

describe('checkWebhookUrl: hostnames', () => {
  it('refuses a name that resolves to a private address, naming the address', async () => {
    const reason = await reasonFor('https://hooks.example.com/', { allowHosts: [], lookup: resolvesTo('10.1.2.3') });
    expect(reason).toBe(
      'The host hooks.example.com resolves to 10.1.2.3, which is not a public address (private); webhooks only reach public addresses and the private targets an owner of the organization allowed (organization setting webhookPrivateTargets).',
    );
  });

  it('refuses when any one of several addresses is not public (DNS rebinding)', async () => {
    const lookup = resolvesTo('93.184.216.34', '2606:2800:220:1::1', '127.0.0.1');
    expect(await reasonFor('https://hooks.example.com/', { allowHosts: [], lookup })).toContain('127.0.0.1');
    const mapped = resolvesTo('93.184.216.34', '::ffff:a9fe:a9fe');
    expect(await reasonFor('https://hooks.example.com/', { allowHosts: [], lookup: mapped })).toContain('cloud metadata');
  });

  it('accepts a name whose addresses are all public and pins the first one', async () => {
    const lookup = resolvesTo('2606:2800:220:1::1', '93.184.216.34');
    const result = await checkWebhookUrl('https://Hooks.Example.com/in', { allowHosts: [], lookup });
    expect(result).toMatchObject({ ok: true, address: '2606:2800:220:1::1', family: 6 });
    expect(result.ok && result.url.hostname).toBe('hooks.example.com');
  });

  it('refuses a name that does not resolve, or resolves to nothing', async () => {
    expect(await reasonFor('https://nothing-here.invalid/')).toContain('could not be resolved');
    expect(await reasonFor('https://empty.example/', { allowHosts: [], lookup: resolvesTo() })).toContain('has no address');
  });

  it('refuses localhost through real DNS unless it is allow-listed', async () => {
    expect(await reasonFor('https://localhost/hook')).toContain('loopback');
    expect(await reasonFor('https://LOCALHOST:8443/hook')).toContain('loopback');
    const allowed = await checkWebhookUrl('https://localhost:8443/hook', { allowHosts: ['LocalHost'] });
    expect(allowed.ok).toBe(true);
    expect(allowed.ok && ['127.0.0.1', '::1']).toContain(allowed.ok && allowed.address);
  });

  it('matches allow-listed hosts exactly, and still demands https', async () => {
    const opts = { allowHosts: ['localhost'] };
    expect(await reasonFor('https://localhost.evil.example/', { ...opts, lookup: resolvesTo('127.0.0.1') })).toContain('loopback');
    expect(await reasonFor('https://sub.localhost/', { ...opts, lookup: resolvesTo('127.0.0.1') })).toContain('loopback');
    expect(await reasonFor('http://localhost/', opts)).toContain('must use https');
  });

  it('allow-lists IP literals too, including bracketed IPv6', async () => {
    expect((await checkWebhookUrl('https://127.0.0.1:9000/', { allowHosts: ['127.0.0.1'] })).ok).toBe(true);
    expect(await checkWebhookUrl('https://[::1]:9000/', { allowHosts: ['[::1]'] })).toMatchObject({ ok: true, address: '::1', family: 6 });
    expect(await checkWebhookUrl('https://[::1]:9000/', { allowHosts: ['::1'] })).toMatchObject({ ok: true, address: '::1' });
  });
});

describe('parseAllowHosts', () => {
  it('splits the comma list and drops blanks', () => {
    expect(parseAllowHosts(' localhost, 127.0.0.1 ,,')).toEqual(['localhost', '127.0.0.1']);
    expect(parseAllowHosts(undefined)).toEqual([]);
  });
});
