import { afterAll, describe, expect, it } from 'vitest';
import { countSignInFailures } from '../../src/redis/scripts/count-sign-in-failures.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

const attempt = (s: string, count: 0 | 1, perAddress = 3, perEmail = 2) =>
  countSignInFailures(redis, { byAddress: key(`a${s}`), byEmail: key(`e${s}`) }, { windowMs: 60_000, perAddress, perEmail, countFailure: count === 1 });
const waitOf = async (s: string, count: 0 | 1): Promise<number> => {
  const refused = await attempt(s, count);
  if (refused.allowed) throw new Error('expected a refusal');
  return refused.waitMs;
};

describe('lua/countSignInFailures', () => {
  it('counts failures only when asked, and refuses once the email reached its limit, with the time left', async () => {
    expect(await attempt('1', 0)).toEqual({ allowed: true });
    expect(await redis.exists(key('a1'), key('e1'))).toBe(0);
    expect(await attempt('1', 1)).toEqual({ allowed: true });
    expect(await attempt('1', 1)).toEqual({ allowed: true });
    const waitMs = await waitOf('1', 0);
    expect(waitMs).toBeGreaterThan(50_000);
    expect(waitMs).toBeLessThanOrEqual(60_000);
  });

  it('refuses once the address reached its limit, whatever the email', async () => {
    await redis.set(key('a2'), 3, 'PX', 30_000);
    const waitMs = await waitOf('2', 1);
    expect(waitMs).toBeLessThanOrEqual(30_000);
    expect(await redis.get(key('e2'))).toBeNull();
  });

  it('starts each counter with the window as its lifetime', async () => {
    await attempt('3', 1);
    expect(await redis.pttl(key('a3'))).toBeGreaterThan(59_000);
    expect(await redis.pttl(key('e3'))).toBeGreaterThan(59_000);
  });
});
