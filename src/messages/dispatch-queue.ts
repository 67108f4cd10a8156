import type { AppContext } from '../context/app-context.js';
import { enqueueMessages } from '../redis/scripts/enqueue-messages.js';

/** A message on its way to a dispatch queue. */
export interface DispatchEntry {
  id: string;
  orgId: string;
  requestedDeviceId: string | null;
  /** Enqueue order: the message's creation time, so a rebuilt queue keeps the original order. */
  score: number;
  /** What a phone needs to send it (dispatchMeta), kept beside the queue so a claim reads no Postgres. */
  meta: string;
}

export interface DispatchFields {
  body: string;
  segments: number;
  simSubscriptionId: number | null;
  requestedDeviceId: string | null;
  expiresAt: number;
}

/** The dispatch JSON of one message: {to, body, seg, sim, dev, exp} (read by lua/claimJobs). */
export function dispatchMeta(to: string, f: DispatchFields): string {
  return batchMetaFormatter(f)(to);
}

/** The messages of one send differ only by recipient: the rest of their JSON is made once. */
export function batchMetaFormatter(f: DispatchFields): (to: string) => string {
  const rest = `,"body":${JSON.stringify(f.body)},"seg":${f.segments},"sim":${JSON.stringify(f.simSubscriptionId)},` +
    `"dev":${JSON.stringify(f.requestedDeviceId)},"exp":${f.expiresAt}}`;
  return (to) => `{"to":${JSON.stringify(to)}${rest}`;
}

/** Queues messages of one organization and one target (a device, or any phone) in one Lua call. */
export async function enqueueForDispatch(ctx: AppContext, orgId: string, deviceId: string | null, entries: DispatchEntry[]): Promise<number> {
  if (entries.length === 0) return 0;
  const k = ctx.keys.org(orgId);
  return enqueueMessages(ctx.redis, { orgQueue: k.orgQueue(), deviceQueue: k.deviceQueue(deviceId ?? '-'), queueMeta: k.queueMeta() }, {
    pinnedToDevice: Boolean(deviceId),
    messages: entries,
  });
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
