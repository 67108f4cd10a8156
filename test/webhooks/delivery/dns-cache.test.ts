import { describe, expect, it } from 'vitest';
import { cachedLookup } from '../../../src/webhooks/delivery/dns-cache.js';
import type { ResolvedAddress } from '../../../src/webhooks/delivery/safe-url.js';

function countingResolver(answer: () => ResolvedAddress[] | Error) {
  const asked: string[] = [];
  const lookup = async (host: string) => {
    asked.push(host);
    const a = answer();
    if (a instanceof Error) throw a;
    return a;
  };
  return { asked, lookup };
}

describe('cached DNS answers for deliveries', () => {
  it('asks once per host within the time to live, then again', async () => {
    let now = 0;
    let address = '93.184.216.34';
    const r = countingResolver(() => [{ address, family: 4 }]);
    const lookup = cachedLookup(2000, r.lookup, () => now);
    await Promise.all([lookup('a.example'), lookup('a.example'), lookup('b.example')]);
    expect(r.asked).toEqual(['a.example', 'b.example']);
    now = 1999;
    expect(await lookup('a.example')).toEqual([{ address: '93.184.216.34', family: 4 }]);
    address = '93.184.216.35';
    now = 2000;
    expect(await lookup('a.example')).toEqual([{ address: '93.184.216.35', family: 4 }]);
    expect(r.asked).toEqual(['a.example', 'b.example', 'a.example']);
  });

  it('does not remember a failed lookup', async () => {
    let fail = true;
    const r = countingResolver(() => (fail ? new Error('ENOTFOUND') : [{ address: '93.184.216.34', family: 4 }]));
    const lookup = cachedLookup(2000, r.lookup, () => 0);
    await expect(lookup('a.example')).rejects.toThrow('ENOTFOUND');
    fail = false;
    expect(await lookup('a.example')).toHaveLength(1);
    expect(r.asked).toHaveLength(2);
  });
});
