import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { runScript } from '../../src/redis/scripts.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

let n = 0;
let record: string;
let bucket: string;
beforeEach(() => {
  n++;
  record = key(`rec${n}`);
  bucket = key(`bucket${n}`);
});

const cached = (rate: number | null = null, burst: number | null = null) =>
  redis.set(record, JSON.stringify({ keyId: 'key_1', orgId: 'org_1', scopes: ['messages:read'], expiresAt: null, ratePerSecond: rate, rateBurst: burst }));

/** authenticate(KEYS record, bucket; ARGV nowMs, defaultRate, defaultBurst, count) → [code, record, retryAfterMs, granted] */
const authMany = (now: number, count: number, rate = 10, burst = 3) =>
  runScript<[number, string, number, number]>(redis, 'authenticate', [record, bucket], [now, rate, burst, count]);
/** One request: [code, record, retryAfterMs]. */
const auth = async (now: number, rate = 10, burst = 3): Promise<[number, string, number]> => {
  const [code, rec, retryAfterMs] = await authMany(now, 1, rate, burst);
  return [code, rec, retryAfterMs];
};

describe('lua/authenticate', () => {
  it('answers 0 (look in Postgres) for a key it has no record of, spending nothing', async () => {
    expect(await auth(1000)).toEqual([0, '', 0]);
    expect(await redis.exists(bucket)).toBe(0);
  });

  it('answers -1 for a tombstone', async () => {
    await redis.set(record, 'revoked');
    expect(await auth(1000)).toEqual([-1, '', 0]);
  });

  it('returns the record and spends the burst, then refuses with the time to the next token', async () => {
    await cached();
    for (let i = 0; i < 3; i++) {
      const [code, rec] = await auth(1000);
      expect(code).toBe(1);
      expect(JSON.parse(rec).orgId).toBe('org_1');
    }
    expect(await auth(1000)).toEqual([-2, '', 100]); // 10 tokens/s: one every 100 ms
    expect(await auth(1040)).toEqual([-2, '', 60]);
  });

  it('refills tokens over time, never beyond the burst', async () => {
    await cached();
    for (let i = 0; i < 3; i++) await auth(1000);
    expect((await auth(1100))[0]).toBe(1); // one token back after 100 ms
    expect((await auth(1100))[0]).toBe(-2);
    // an hour later: the burst again, not 36,000 tokens
    const later = 3_601_000;
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await auth(later))[0]);
    expect(codes).toEqual([1, 1, 1, -2]);
  });

  it("uses the key's own rate and burst over the defaults", async () => {
    await cached(1, 1);
    expect((await auth(1000))[0]).toBe(1);
    expect(await auth(1000)).toEqual([-2, '', 1000]);
    expect((await auth(2000))[0]).toBe(1);
  });

  it('does not refill when the clock goes backwards (another process is behind)', async () => {
    await cached(10, 1);
    expect((await auth(5000))[0]).toBe(1);
    expect((await auth(4000))[0]).toBe(-2);
  });

  it('admits several requests of one key in one call, as many as there are tokens, and says when the next is back', async () => {
    await cached(10, 5);
    const [code, rec, retryAfterMs, granted] = await authMany(1000, 3);
    expect([code, retryAfterMs, granted]).toEqual([1, 0, 3]);
    expect(JSON.parse(rec).keyId).toBe('key_1');
    const second = await authMany(1000, 4);
    expect([second[0], second[2], second[3]]).toEqual([1, 100, 2]); // two tokens left of five
    expect(await authMany(1000, 4)).toEqual([-2, '', 100, 0]);
    expect((await authMany(1250, 4)).slice(2)).toEqual([50, 2]); // 2.5 tokens back after 250 ms
  });

  it('lets the bucket expire once it would be full again', async () => {
    await cached(10, 3);
    await auth(Date.now());
    const ttl = await redis.pttl(bucket);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(300 + 1000);
  });
});
