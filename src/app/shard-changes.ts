import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { isCluster } from '../redis/client.js';

/**
 * The masters serving a cluster's slots, as `<node id>` sorted: a replica promoted over a dead
 * master changes it. Parsed from CLUSTER NODES (`<id> <addr> <flags> <master> … <slots>`).
 */
export function slotMasters(clusterNodes: string): string {
  return clusterNodes
    .split('\n')
    .map((line) => line.trim().split(' '))
    .filter((f) => f.length > 8 && f[2]!.split(',').includes('master') && !f[2]!.includes('fail'))
    .map((f) => f[0]!)
    .sort()
    .join(',');
}

/**
 * A replica promoted after its master died may not have had the master's last writes: messages
 * queued, scheduled or handed to webhooks in the last moment before the failure are gone from
 * Redis while Postgres has them. Nothing in the keys says so (the markers were written long
 * before and survive), so a change of the cluster's masters is taken as a loss: the markers of
 * the dispatch queues, the schedule and the webhook queue are deleted, and each recovery pass
 * rebuilds what it holds from Postgres (idempotently: what is still there stays). On one Redis,
 * a loss is a wipe, which the markers show themselves. Answers whether the masters changed.
 */
export async function noticeShardChanges(ctx: Infrastructure): Promise<boolean> {
  if (!isCluster(ctx.redis)) return false;
  const masters = slotMasters(String(await ctx.redis.cluster('NODES')));
  const seenKey = ctx.keys.clusterMasters();
  const seen = await ctx.redis.get(seenKey);
  if (seen === masters) return false;
  // One DEL per key: a cluster refuses one across slots.
  for (const marker of [ctx.keys.queuesBuilt(), ctx.keys.scheduleBuilt(), ctx.keys.webhooksQueued()]) await ctx.redis.del(marker);
  await ctx.redis.set(seenKey, masters);
  if (seen !== null) ctx.log.warn({ before: seen, now: masters }, 'Redis Cluster masters changed: rebuilding queues, schedule and webhook jobs from Postgres');
  return true;
}
