import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { confirmClaims } from '../redis/scripts/confirm-claims.js';
import { selectStillQueued } from './sql/select-still-queued.js';

/**
 * Ends the Redis claim of messages Postgres never gave a phone (the claim was refused, or its
 * process died before the write): those still queued in Postgres go back on their queue, the
 * others (cancelled, expired meanwhile) leave the claiming set with their dispatch JSON.
 * Returns how many went back.
 */
export async function returnToQueues(ctx: Infrastructure, orgId: string, ids: string[]): Promise<number> {
  const k = ctx.keys.org(orgId);
  const requeue = await selectStillQueued(ctx.db, ids);
  if (requeue.size > 0) {
    const m = ctx.redis.multi();
    for (const [id, deviceId] of requeue) m.zadd(deviceId ? k.deviceQueue(deviceId) : k.orgQueue(), 0, id).zrem(k.claiming(), id);
    await m.exec();
  }
  const drop = ids.filter((id) => !requeue.has(id));
  if (drop.length > 0) await confirmClaims(ctx.redis, { claiming: k.claiming(), queueMeta: k.queueMeta() }, { messageIds: drop });
  return requeue.size;
}
