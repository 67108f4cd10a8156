import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { AddressBuckets } from '../../src/limits/address-buckets.js';

/**
 * Before authentication: requests without a credential and failed authentications are limited
 * per client address, before any other work (docs/operations.md, "Before authentication").
 */
let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({ trustProxy: true, anonymousRatePerSecond: 2, anonymousBurst: 10 });
  ({ key } = await app.createOrg());
});
afterAll(() => app.close());

const from = (address: string, extra: Record<string, string> = {}) => ({ headers: { 'x-forwarded-for': address, ...extra } });

describe('the limit before authentication', () => {
  it('answers an address past its burst 429 with Retry-After, and no other address', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => app.request('GET', '/openapi.json', from('203.0.113.1'))));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(10);
    expect(refused[0]!.body.error).toMatchObject({ code: 'rate_limited', message: 'too many requests without a valid credential from this address' });
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await app.request('GET', '/openapi.json', from('203.0.113.2'))).status).toBe(200);
  });

  it('never limits a request with a valid API key, whatever its address did', async () => {
    await Promise.all(Array.from({ length: 12 }, () => app.request('GET', '/openapi.json', from('203.0.113.3'))));
    expect((await app.request('GET', '/openapi.json', from('203.0.113.3'))).status).toBe(429);
    const statuses = await Promise.all(Array.from({ length: 30 }, () => app.request('GET', '/v1/messages?limit=1', { key, ...from('203.0.113.3') }).then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it('counts failed authentications: guessing keys soon gets 429 before any key is looked up', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await app.request('GET', '/v1/messages', { key: `hfk_guess${i}`, ...from('203.0.113.4') })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect((await app.request('GET', '/openapi.json', from('203.0.113.4'))).status).toBe(429);
  });
});

describe('AddressBuckets', () => {
  it('refills at its rate, says how long to wait, and forgets the address used longest ago past its size', () => {
    let now = 0;
    const b = new AddressBuckets(2, 3, 2, () => now);
    expect([b.take('a'), b.take('a'), b.take('a')]).toEqual([0, 0, 0]);
    expect(b.take('a')).toBe(500);
    now = 500;
    expect(b.take('a')).toBe(0);
    b.take('b');
    b.take('c'); // 'a' was used longest ago: forgotten, so it starts full again
    expect(b.size).toBe(2);
    expect([b.take('a'), b.take('a'), b.take('a')]).toEqual([0, 0, 0]);
  });
});
