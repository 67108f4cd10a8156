import type { Infrastructure } from '../infrastructure/infrastructure.js';
import type { DispatchEntry } from './entries.js';
import { returnToQueues } from './return-to-queues.js';
import type { WorkSignals } from './work-signals.js';

/**
 * Puts claimed messages back on their queues when Postgres agrees (a withdrawal): `decide` makes
 * the change in Postgres and returns the ids it changed. The entries are first held in the
 * claiming set with their dispatch JSON, so a process that dies after Postgres moved them and
 * before they reach a queue leaves them where the claiming-set sweep finds them and puts them
 * back (a message queued in Postgres must be on a queue, or no phone would ever see it). Those
 * Postgres did not change (the phone acknowledged `sending` first) leave the claiming set through
 * returnToQueues, which also copes with a second withdrawal racing this one.
 */
export async function requeue(ctx: Infrastructure, signals: WorkSignals, orgId: string, entries: DispatchEntry[], decide: () => Promise<Set<string>>): Promise<string[]> {
  if (entries.length === 0) return [];
  const k = ctx.keys.org(orgId);
  const hold = ctx.redis.multi();
  for (const e of entries) hold.hset(k.queueMeta(), e.id, e.meta).zadd(k.claiming(), ctx.clock.now(), e.id);
  await hold.exec();

  const moved = await decide();
  const back = entries.filter((e) => moved.has(e.id));
  if (back.length > 0) {
    const put = ctx.redis.multi();
    for (const e of back) put.zadd(e.requestedDeviceId ? k.deviceQueue(e.requestedDeviceId) : k.orgQueue(), e.score, e.id).zrem(k.claiming(), e.id);
    await put.exec();
    await signals.signal(back.map((e) => ({ orgId, requestedDeviceId: e.requestedDeviceId })));
  }
  const stayed = entries.filter((e) => !moved.has(e.id)).map((e) => e.id);
  if (stayed.length > 0) await returnToQueues(ctx, orgId, stayed);
  return back.map((e) => e.id);
}
