import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwnRedis, type OwnRedis } from '../support/own-redis.js';
import { createRedis, type Redis } from '../../src/redis/connection.js';
import { checkEvictionPolicy } from '../../src/redis/eviction-policy.js';

/** A Redis of its own: the check's subject is the server's configuration. */
let server: OwnRedis;
let redis: Redis;
beforeAll(async () => {
  server = await startOwnRedis();
  redis = createRedis(server.url, { name: 'eviction-policy-test' });
}, 60_000);
afterAll(async () => {
  await redis?.quit();
  await server?.destroy();
});

function recordingLog() {
  const lines: { level: 'warn' | 'info'; msg: string }[] = [];
  const log = {
    warn: (_: object, msg: string) => void lines.push({ level: 'warn', msg }),
    info: (_: object, msg: string) => void lines.push({ level: 'info', msg }),
  };
  return { lines, log: log as unknown as Parameters<typeof checkEvictionPolicy>[1] };
}

describe('checkEvictionPolicy', () => {
  it('says nothing when Redis does not evict', async () => {
    await redis.config('SET', 'maxmemory-policy', 'noeviction');
    const { lines, log } = recordingLog();
    expect(await checkEvictionPolicy(redis, log)).toBe('noeviction');
    expect(lines).toEqual([]);
  });

  it('warns that queue keys may be evicted under any other policy', async () => {
    await redis.config('SET', 'maxmemory-policy', 'allkeys-lru');
    try {
      const { lines, log } = recordingLog();
      expect(await checkEvictionPolicy(redis, log)).toBe('evicts');
      expect(lines).toHaveLength(1);
      expect(lines[0]!.level).toBe('warn');
      expect(lines[0]!.msg).toMatch(/maxmemory-policy is allkeys-lru, not noeviction: Redis may evict queue keys/);
    } finally {
      await redis.config('SET', 'maxmemory-policy', 'noeviction');
    }
  });

  it('reports that it could not check when CONFIG is refused, as on managed Redis', async () => {
    await redis.call('ACL', 'SETUSER', 'noconfig', 'on', '>secret', '~*', '&*', '+@all', '-config');
    const url = new URL(server.url);
    url.username = 'noconfig';
    url.password = 'secret';
    const limited = createRedis(url.toString(), { name: 'eviction-policy-noconfig' });
    try {
      const { lines, log } = recordingLog();
      expect(await checkEvictionPolicy(limited, log)).toBe('unchecked');
      expect(lines).toHaveLength(1);
      expect(lines[0]!.msg).toMatch(/maxmemory-policy could not be checked/);
    } finally {
      await limited.quit();
    }
  });
});
