import type { AppContext } from '../../src/context/app-context.js';
import { isCluster, type Redis } from '../../src/redis/client.js';
import { pipelineByNode } from '../../src/redis/pipeline-by-node.js';

/** Keys under `prefix` on every master (a cluster's keys are spread over its shards). */
export async function keysOfPrefix(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for (const node of isCluster(redis) ? redis.nodes('master') : [redis]) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
  }
  return found;
}

/**
 * Deletes every key under `prefix`: what a FLUSHALL does to one deployment. A DEL per key (a
 * cluster refuses one across slots), pipelined per node so the loss is as sudden as a flush.
 */
export async function deletePrefixKeys(redis: Redis, prefix: string): Promise<number> {
  const replies = await pipelineByNode(
    redis,
    await keysOfPrefix(redis, prefix),
    (key) => key,
    (pipeline, key) => pipeline.del(key),
  );
  return replies.reduce((sum, [, n]) => sum + Number(n ?? 0), 0);
}

/** Deletes every key of this test app's prefix. */
export function flushPrefix(ctx: AppContext): Promise<number> {
  return deletePrefixKeys(ctx.redis, ctx.config.redisPrefix);
}
