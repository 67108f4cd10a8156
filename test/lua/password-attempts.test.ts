import { afterAll, describe, expect, it } from 'vitest';
import { reservePasswordAttempt } from '../../src/redis/scripts/reserve-password-attempt.js';
import { refundPasswordAttempt } from '../../src/redis/scripts/refund-password-attempt.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

const limits = { windowMs: 60_000, perAddress: 4, perAccountAndAddress: 2, perAccount: 3 };
const keysOf = (address: string, account: string) => ({
  byAddress: key(`addr:${address}`),
  byAccountAndAddress: key(`pair:${account}:${address}`),
  byAccount: key(`acct:${account}`),
});
const reserve = (address: string, account: string) => reservePasswordAttempt(redis, keysOf(address, account), limits);

describe('lua/reservePasswordAttempt', () => {
  it('reserves before any check, so concurrent attempts get no more than the limit', async () => {
    const all = await Promise.all(Array.from({ length: 10 }, () => reserve('a1', 'alice1')));
    expect(all.filter((a) => a.reserved)).toHaveLength(limits.perAccountAndAddress);
    const refused = all.find((a) => !a.reserved);
    expect(refused).toMatchObject({ reserved: false });
    expect((refused as { waitMs: number }).waitMs).toBeGreaterThan(50_000);
  });

  it('leaves the account open from another address after one address used its share, up to the account-wide bound', async () => {
    await reserve('a2', 'alice2');
    await reserve('a2', 'alice2');
    expect(await reserve('a2', 'alice2')).toMatchObject({ reserved: false });
    expect(await reserve('b2', 'alice2')).toEqual({ reserved: true });
    expect(await reserve('c2', 'alice2')).toMatchObject({ reserved: false });
  });

  it('refuses an address at its limit whatever the account, counting nothing', async () => {
    for (const account of ['x3', 'y3', 'z3', 'w3']) expect(await reserve('a3', account)).toEqual({ reserved: true });
    expect(await reserve('a3', 'v3')).toMatchObject({ reserved: false });
    expect(await redis.get(key('acct:v3'))).toBeNull();
  });

  it('starts each counter with the window as its lifetime', async () => {
    await reserve('a4', 'alice4');
    for (const k of Object.values(keysOf('a4', 'alice4'))) expect(await redis.pttl(k)).toBeGreaterThan(59_000);
  });
});

describe('lua/refundPasswordAttempt', () => {
  it('gives a reservation back, and never takes a counter below zero', async () => {
    await reserve('a5', 'alice5');
    expect(await refundPasswordAttempt(redis, keysOf('a5', 'alice5'))).toBe(3);
    expect(await redis.mget(...Object.values(keysOf('a5', 'alice5')))).toEqual(['0', '0', '0']);
    expect(await refundPasswordAttempt(redis, keysOf('a5', 'alice5'))).toBe(0);
    expect(await refundPasswordAttempt(redis, keysOf('never', 'seen'))).toBe(0);
    expect(await redis.exists(...Object.values(keysOf('never', 'seen')))).toBe(0);
  });
});
