import { inject } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createRedis, type Redis } from '../../src/redis/connection.js';

/** A connection to the test Redis and a key prefix no other test uses. */
export function testRedis(): { redis: Redis; key: (name: string) => string } {
  const redis = createRedis(inject('redisUrl'), { name: 'lua-test' });
  const prefix = `lua${randomBytes(5).toString('hex')}:{o:test}`;
  return { redis, key: (name) => `${prefix}:${name}` };
}
