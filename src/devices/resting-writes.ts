import { TickBatcher } from '../batching/tick-batcher.js';
import { answerByGroup } from '../batching/group-by.js';
import { perContext } from '../batching/per-context.js';
import type { AppContext } from '../context/app-context.js';
import type { DevicePrincipal } from '../auth/principal.js';
import { swapResting as swapRestingScript } from '../redis/scripts/swap-resting.js';

interface RestingWrite {
  principal: DevicePrincipal;
  resting: boolean;
}

const restingWrites = perContext((ctx: AppContext) => new TickBatcher((writes: RestingWrite[]) => writeResting(ctx, writes), 500));

/**
 * Sets the phone's `resting` field in its dispatch state and answers what it was before, read in
 * the same script call. The heartbeats of one event-loop turn share one call per organization: a
 * fleet opening its sockets heartbeats all at once, and a call each made 10,000 of them where a
 * few dozen do.
 */
export function swapResting(ctx: AppContext, principal: DevicePrincipal, resting: boolean): Promise<string | null> {
  return restingWrites(ctx).load({ principal, resting });
}

function writeResting(ctx: AppContext, writes: RestingWrite[]): Promise<(string | null)[]> {
  // One call per organization: its keys share a cluster slot; a phone written twice in one batch sees its first write, in order.
  return answerByGroup(
    writes,
    (w) => w.principal.orgId,
    (orgId, group) =>
      swapRestingScript(ctx.redis, { deviceStatePrefix: ctx.keys.org(orgId).deviceStatePrefix() }, { writes: group.map((w) => ({ deviceId: w.principal.deviceId, resting: w.resting })) }),
  );
}
