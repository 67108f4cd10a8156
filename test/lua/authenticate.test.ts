import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { authenticateMany } from '../../src/redis/scripts/authenticate.js';
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

const authMany = async (now: number, requests: number, rate = 10, burst = 3) => {
  const [result] = await authenticateMany(redis, [{ keys: { record, bucket }, args: { now, defaultRatePerSecond: rate, defaultBurst: burst, requests } }]);
  if (result instanceof Error) throw result;
  return result!;
};
const auth = (now: number, rate = 10, burst = 3) => authMany(now, 1, rate, burst);
const kindOf = async (now: number, rate = 10, burst = 3) => (await auth(now, rate, burst)).kind;
const limited = (retryAfterMs: number) => ({ kind: 'rateLimited', retryAfterMs });

describe('lua/authenticate', () => {
  it('answers notCached (look in Postgres) for a key it has no record of, spending nothing', async () => {
    expect(await auth(1000)).toEqual({ kind: 'notCached' });
    expect(await redis.exists(bucket)).toBe(0);
  });

  it('answers revoked for a tombstone', async () => {
    await redis.set(record, 'revoked');
    expect(await auth(1000)).toEqual({ kind: 'revoked' });
  });

  it('returns the record and spends the burst, then refuses with the time to the next token', async () => {
    await cached();
    for (let i = 0; i < 3; i++) {
      const result = await auth(1000);
      expect(result).toMatchObject({ kind: 'allowed', granted: 1, retryAfterMs: 0 });
      expect(JSON.parse((result as { record: string }).record).orgId).toBe('org_1');
    }
    expect(await auth(1000)).toEqual(limited(100)); // 10 tokens/s: one every 100 ms
    expect(await auth(1040)).toEqual(limited(60));
  });

  it('refills tokens over time, never beyond the burst', async () => {
    await cached();
    for (let i = 0; i < 3; i++) await auth(1000);
    expect(await kindOf(1100)).toBe('allowed'); // one token back after 100 ms
    expect(await kindOf(1100)).toBe('rateLimited');
    // an hour later: the burst again, not 36,000 tokens
    const later = 3_601_000;
    const kinds = [];
    for (let i = 0; i < 4; i++) kinds.push(await kindOf(later));
    expect(kinds).toEqual(['allowed', 'allowed', 'allowed', 'rateLimited']);
  });

  it("uses the key's own rate and burst over the defaults", async () => {
    await cached(1, 1);
    expect(await kindOf(1000)).toBe('allowed');
    expect(await auth(1000)).toEqual(limited(1000));
    expect(await kindOf(2000)).toBe('allowed');
  });

  it('does not refill when the clock goes backwards (another process is behind)', async () => {
    await cached(10, 1);
    expect(await kindOf(5000)).toBe('allowed');
    expect(await kindOf(4000)).toBe('rateLimited');
  });

  it('admits several requests of one key in one call, as many as there are tokens, and says when the next is back', async () => {
    await cached(10, 5);
    const first = await authMany(1000, 3);
    expect(first).toMatchObject({ kind: 'allowed', retryAfterMs: 0, granted: 3 });
    expect(JSON.parse((first as { record: string }).record).keyId).toBe('key_1');
    expect(await authMany(1000, 4)).toMatchObject({ kind: 'allowed', retryAfterMs: 100, granted: 2 }); // two tokens left of five
    expect(await authMany(1000, 4)).toEqual(limited(100));
    expect(await authMany(1250, 4)).toMatchObject({ kind: 'allowed', retryAfterMs: 50, granted: 2 }); // 2.5 tokens back after 250 ms
  });

  it('answers many keys in one pipeline, each with its own result', async () => {
    await cached(10, 1);
    const other = key(`other${n}`);
    await redis.set(other, 'revoked');
    const results = await authenticateMany(
      redis,
      [record, other, key(`unknown${n}`)].map((r) => ({
        keys: { record: r, bucket },
        args: { now: 1000, defaultRatePerSecond: 10, defaultBurst: 1, requests: 1 },
      })),
    );
    expect(results.map((r) => (r instanceof Error ? r : r.kind))).toEqual(['allowed', 'revoked', 'notCached']);
  });

  it('lets the bucket expire once it would be full again', async () => {
    await cached(10, 3);
    await auth(Date.now());
    const ttl = await redis.pttl(bucket);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(300 + 1000);
  });
});
