import { afterAll, describe, expect, inject, it } from 'vitest';
import { Redis } from 'ioredis';
import { loadLuaScripts } from '../../src/redis/scripts/lua-scripts.js';
import { confirmClaims } from '../../src/redis/scripts/confirm-claims.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

describe('Lua scripts on a connection', () => {
  it('are every one defined when createRedis opens the connection, before its first command', () => {
    const commands = [...loadLuaScripts().values()].map((s) => s.command);
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) expect(typeof (redis as unknown as Record<string, unknown>)[command], command).toBe('function');
  });

  it('refuse with a clear error on a connection opened without them', async () => {
    const bare = new Redis(inject('redisUrl'), { lazyConnect: true });
    try {
      await expect(confirmClaims(bare, { claiming: key('c'), queueMeta: key('m') }, { messageIds: ['x'] })).rejects.toThrow(/no Lua scripts/);
    } finally {
      bare.disconnect();
    }
  });
});

describe('lua/confirmClaims', () => {
  it('ends the claims of the ids given, dropping their meta, and counts those that were claimed', async () => {
    await redis.zadd(key('claiming'), 1, 'm1', 2, 'm2');
    await redis.hset(key('meta'), { m1: '{}', m2: '{}', m3: '{}' });
    expect(await confirmClaims(redis, { claiming: key('claiming'), queueMeta: key('meta') }, { messageIds: ['m1', 'm3'] })).toBe(1);
    expect(await redis.zrange(key('claiming'), '0', '-1')).toEqual(['m2']);
    expect(await redis.hkeys(key('meta'))).toEqual(['m2']);
  });
});
