import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { enqueueMessages } from '../redis/scripts/enqueue-messages.js';
import { groupBy } from '../batching/group-by.js';
import { sameTarget, targetKey, type DispatchEntry } from './entries.js';

/** Queues messages of one organization and one target (a device, or any phone) in one Lua call. */
async function enqueueForTarget(ctx: Infrastructure, orgId: string, deviceId: string | null, entries: DispatchEntry[]): Promise<number> {
  if (entries.length === 0) return 0;
  const k = ctx.keys.org(orgId);
  return enqueueMessages(
    ctx.redis,
    { orgQueue: k.orgQueue(), deviceQueue: k.deviceQueue(deviceId ?? '-'), queueMeta: k.queueMeta() },
    {
      pinnedToDevice: Boolean(deviceId),
      messages: entries,
    },
  );
}

/**
 * Queues entries of any organizations and targets: one Lua call per (organization, target).
 * Idempotent: what is already queued stays where it is. Returns how many were added.
 */
export async function enqueue(ctx: Infrastructure, entries: DispatchEntry[]): Promise<number> {
  const groups = groupBy(entries, targetKey, sameTarget);
  let added = 0;
  for (const list of groups.values()) added += await enqueueForTarget(ctx, list[0]!.orgId, list[0]!.requestedDeviceId, list);
  return added;
}

/** Takes messages off the dispatch queues (cancelled, expired or failed before a phone took them). */
export async function removeFromQueues(ctx: Infrastructure, orgId: string, items: { id: string; requestedDeviceId: string | null }[]): Promise<void> {
  if (items.length === 0) return;
  const k = ctx.keys.org(orgId);
  const m = ctx.redis.multi();
  for (const it of items) {
    m.zrem(it.requestedDeviceId ? k.deviceQueue(it.requestedDeviceId) : k.orgQueue(), it.id);
    m.hdel(k.queueMeta(), it.id);
  }
  await m.exec();
}
