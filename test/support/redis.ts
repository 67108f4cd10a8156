import type { AppContext } from '../../src/context/app-context.js';

/** Deletes every key of this test app's prefix: what a FLUSHALL does to one deployment. */
export async function flushPrefix(ctx: AppContext): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await ctx.redis.scan(cursor, 'MATCH', `${ctx.config.redisPrefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await ctx.redis.del(...keys);
  } while (cursor !== '0');
  return deleted;
}
