import { afterAll, describe, expect, it } from 'vitest';
import { runScript } from '../../src/redis/scripts.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

/** countSignInFailures(KEYS byAddress, byEmail; ARGV windowMs, perAddress, perEmail, count) */
const attempt = (s: string, count: 0 | 1, perAddress = 3, perEmail = 2) =>
  runScript<[number, number]>(redis, 'countSignInFailures', [key(`a${s}`), key(`e${s}`)], [60_000, perAddress, perEmail, count]);

describe('lua/countSignInFailures', () => {
  it('counts failures only when asked, and refuses once the email reached its limit, with the time left', async () => {
    expect(await attempt('1', 0)).toEqual([1, 0]);
    expect(await redis.exists(key('a1'), key('e1'))).toBe(0);
    expect(await attempt('1', 1)).toEqual([1, 0]);
    expect(await attempt('1', 1)).toEqual([1, 0]);
    const [allowed, waitMs] = await attempt('1', 0);
    expect(allowed).toBe(0);
    expect(waitMs).toBeGreaterThan(50_000);
    expect(waitMs).toBeLessThanOrEqual(60_000);
  });

  it('refuses once the address reached its limit, whatever the email', async () => {
    await redis.set(key('a2'), 3, 'PX', 30_000);
    const [allowed, waitMs] = await attempt('2', 1);
    expect(allowed).toBe(0);
    expect(waitMs).toBeLessThanOrEqual(30_000);
    expect(await redis.get(key('e2'))).toBeNull();
  });

  it('starts each counter with the window as its lifetime', async () => {
    await attempt('3', 1);
    expect(await redis.pttl(key('a3'))).toBeGreaterThan(59_000);
    expect(await redis.pttl(key('e3'))).toBeGreaterThan(59_000);
  });
});
