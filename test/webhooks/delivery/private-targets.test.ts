import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, type CheckWebhookUrlOptions, type ResolvedAddress } from '../../../src/webhooks/delivery/safe-url.js';
import { normalisePrivateTargets, privateTargetProblem } from '../../../src/webhooks/delivery/private-targets.js';

/** A resolver answering fixed addresses, standing in for DNS we do not control. */
const resolvesTo =
  (...addresses: string[]) =>
  async (): Promise<ResolvedAddress[]> =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

/** localhost resolves through the machine's own resolver: either loopback may come first. */
const LOOPBACK_ACCEPTED = /^accepted (127\.0\.0\.1|::1)$/;
const check = (url: string, opts: Partial<CheckWebhookUrlOptions>) => checkWebhookUrl(url, { allowHosts: [], ...opts });
const reason = async (url: string, opts: Partial<CheckWebhookUrlOptions>) => {
  const result = await check(url, opts);
  return result.ok ? `accepted ${result.address}` : result.reason;
};

describe('private targets: the entries', () => {
  it('takes host names, IP addresses and CIDR ranges, normalised', () => {
    expect(normalisePrivateTargets(['LocalHost', '127.0.0.1', '[::1]', '192.168.1.0/24', 'fd00::/8', 'localhost'])).toEqual({
      ok: true,
      targets: ['localhost', '127.0.0.1', '::1', '192.168.1.0/24', 'fd00::/8'],
    });
  });

  it.each(['http://localhost', 'local host', '192.168.1.0/33', '10.0.0.0/8/1', 'nope/8', '', 'a_b'])('refuses %j', (entry) => {
    expect(privateTargetProblem(entry)).toMatch(/not a/);
    expect(normalisePrivateTargets(['localhost', entry]).ok).toBe(false);
  });

  it('refuses more than 20 entries', () => {
    expect(normalisePrivateTargets(Array.from({ length: 21 }, (_, i) => `h${i}`))).toEqual({ ok: false, problem: 'at most 20 entries' });
  });
});

describe('private targets: checkWebhookUrl', () => {
  it('refuses a loopback target by default, and accepts it once the organization lists it (by name, address or range)', async () => {
    expect(await reason('https://localhost:4000/', {})).toMatch(/not a public address \(loopback\).*webhookPrivateTargets/);
    expect(await reason('https://localhost:4000/', { privateTargets: ['localhost'] })).toMatch(LOOPBACK_ACCEPTED);
    expect(await reason('https://127.0.0.1:4000/', { privateTargets: ['127.0.0.0/8'] })).toBe('accepted 127.0.0.1');
    expect(await reason('https://[::1]:4000/', { privateTargets: ['::1'] })).toBe('accepted ::1');
    // Another loopback address than the one listed stays refused.
    expect(await reason('https://127.0.0.2:4000/', { privateTargets: ['127.0.0.1'] })).toMatch(/loopback/);
  });

  it('checks every address a listed range must cover: a name also resolving elsewhere private is refused', async () => {
    const lookup = resolvesTo('192.168.1.20', '10.0.0.7');
    expect(await reason('https://printer.lan/', { privateTargets: ['192.168.1.0/24'], lookup })).toMatch(/10\.0\.0\.7/);
    expect(await reason('https://printer.lan/', { privateTargets: ['192.168.1.0/24', '10.0.0.0/8'], lookup })).toBe('accepted 192.168.1.20');
    // A listed name covers all its addresses.
    expect(await reason('https://printer.lan/', { privateTargets: ['printer.lan'], lookup })).toBe('accepted 192.168.1.20');
  });

  it('never opens a cloud metadata address, even listed', async () => {
    expect(await reason('https://169.254.169.254/', { privateTargets: ['169.254.169.254', '169.254.0.0/16'] })).toMatch(/cloud metadata/);
    expect(await reason('https://meta.lan/', { privateTargets: ['meta.lan'], lookup: resolvesTo('169.254.169.254') })).toMatch(/cloud metadata/);
  });

  it('takes plain http to a listed loopback target without more, to the LAN only when the organization chose plain HTTP', async () => {
    expect(await reason('http://localhost:4000/', { privateTargets: ['localhost'] })).toMatch(LOOPBACK_ACCEPTED);
    const lan = { privateTargets: ['192.168.1.0/24'], lookup: resolvesTo('192.168.1.20') };
    expect(await reason('http://erp.lan/hook', lan)).toMatch(/must use https; plain http only reaches/);
    expect(await reason('https://erp.lan/hook', lan)).toBe('accepted 192.168.1.20');
    expect(await reason('http://erp.lan/hook', { ...lan, plainHttp: true })).toBe('accepted 192.168.1.20');
  });

  it('never takes plain http to a public address, nor to an unlisted one, whatever the setting', async () => {
    expect(await reason('http://hooks.example.com/', { plainHttp: true, lookup: resolvesTo('93.184.216.34') })).toMatch(/must use https/);
    expect(await reason('http://localhost:4000/', { plainHttp: true })).toMatch(/not a public address/);
    // The operator's HAFATRA_WEBHOOK_ALLOW_HOSTS keeps working, https only.
    expect(await reason('https://localhost:4000/', { allowHosts: ['localhost'] })).toMatch(LOOPBACK_ACCEPTED);
    expect(await reason('http://localhost:4000/', { allowHosts: ['localhost'] })).toMatch(/must use https/);
  });
});
