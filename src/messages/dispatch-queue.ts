import type { AppContext } from '../app/context.js';
import { runScript } from '../redis/scripts.js';

/** What a phone needs to send a message, kept beside the queue so a claim reads no Postgres. */
export interface DispatchEntry {
  id: string;
  orgId: string;
  to: string;
  body: string;
  segments: number;
  simSubscriptionId: number | null;
  requestedDeviceId: string | null;
  expiresAt: number;
  /** Enqueue order: the message's creation time, so a rebuilt queue keeps the original order. */
  score: number;
}

/** Queues messages of one organization and one target (a device, or any phone) in one Lua call. */
export async function enqueueForDispatch(ctx: AppContext, orgId: string, deviceId: string | null, entries: DispatchEntry[]): Promise<number> {
  if (entries.length === 0) return 0;
  const k = ctx.keys.org(orgId);
  const args: (string | number)[] = [deviceId ? 1 : 0];
  for (const e of entries) {
    args.push(e.id, e.score, JSON.stringify({ to: e.to, body: e.body, seg: e.segments, sim: e.simSubscriptionId, dev: e.requestedDeviceId, exp: e.expiresAt }));
  }
  return runScript<number>(ctx.redis, 'enqueueMessages', [k.orgQueue(), k.deviceQueue(deviceId ?? '-'), k.queueMeta()], args);
}

/** Groups entries by organization and target before queueing: the reconciler and rebuild mix them. */
export async function enqueueMixed(ctx: AppContext, entries: DispatchEntry[]): Promise<number> {
  const groups = new Map<string, DispatchEntry[]>();
  for (const e of entries) {
    const key = `${e.orgId}\u0000${e.requestedDeviceId ?? ''}`;
    const list = groups.get(key);
    if (list) list.push(e);
    else groups.set(key, [e]);
  }
  let added = 0;
  for (const list of groups.values()) added += await enqueueForDispatch(ctx, list[0]!.orgId, list[0]!.requestedDeviceId, list);
  return added;
}

/** Takes messages off the dispatch queues (cancelled, expired or failed before a phone took them). */
export async function removeFromDispatch(ctx: AppContext, orgId: string, items: { id: string; requestedDeviceId: string | null }[]): Promise<void> {
  if (items.length === 0) return;
  const k = ctx.keys.org(orgId);
  const m = ctx.redis.multi();
  for (const it of items) {
    m.zrem(it.requestedDeviceId ? k.deviceQueue(it.requestedDeviceId) : k.orgQueue(), it.id);
    m.hdel(k.queueMeta(), it.id);
  }
  await m.exec();
}
