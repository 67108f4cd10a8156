import { TickBatcher } from '../batching/tick-batcher.js';
import { groupBy } from '../batching/group-by.js';
import { perContext } from '../batching/per-context.js';
import type { AppContext } from '../context/app-context.js';
import type { DevicePrincipal } from '../auth/principal.js';

interface RestingWrite {
  principal: DevicePrincipal;
  resting: boolean;
}

const restingWrites = perContext((ctx: AppContext) => new TickBatcher((writes: RestingWrite[]) => writeResting(ctx, writes), 500));

/**
 * Sets the phone's `resting` field in its dispatch state and answers what it was before, read in
 * the same transaction. The heartbeats of one event-loop turn share one transaction per
 * organization: a fleet opening its sockets heartbeats all at once, and a transaction each made
 * 10,000 of them (each a pipeline of its own) where a few dozen do.
 */
export function swapResting(ctx: AppContext, principal: DevicePrincipal, resting: boolean): Promise<string | null> {
  return restingWrites(ctx).load({ principal, resting });
}

async function writeResting(ctx: AppContext, writes: RestingWrite[]): Promise<(string | null)[]> {
  const byOrg = groupBy(
    writes.map((_, i) => i),
    (i) => writes[i]!.principal.orgId,
  );
  const was: (string | null)[] = new Array(writes.length).fill(null);
  // One organization's keys share a cluster slot; a phone written twice in one batch sees its first write, in order.
  await Promise.all(
    [...byOrg].map(async ([orgId, indexes]) => {
      const k = ctx.keys.org(orgId);
      const tx = ctx.redis.multi();
      for (const i of indexes) {
        const { principal, resting } = writes[i]!;
        tx.hget(k.deviceState(principal.deviceId), 'resting').hset(k.deviceState(principal.deviceId), 'resting', resting ? 1 : 0);
      }
      const replies = (await tx.exec()) as [Error | null, unknown][] | null;
      if (!replies) throw new Error('resting transaction aborted');
      indexes.forEach((i, j) => {
        const [err, value] = replies[2 * j]!;
        if (err) throw err;
        was[i] = value as string | null;
      });
    }),
  );
  return was;
}
