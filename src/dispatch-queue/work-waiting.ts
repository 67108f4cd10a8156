import { TickBatcher } from '../batching/tick-batcher.js';
import { answerByGroup } from '../batching/group-by.js';
import { perContext } from '../batching/per-context.js';
import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { workWaiting as workWaitingScript } from '../redis/scripts/work-waiting.js';

interface Phone {
  orgId: string;
  deviceId: string;
}

const checks = perContext((ctx: Infrastructure) => new TickBatcher((phones: Phone[]) => checkTogether(ctx, phones), 500));

/**
 * Whether a claim for the phone could find anything: its own queue or its organization's holds a
 * message. The phones whose sockets open in one event-loop turn are asked in one Redis call per
 * organization, where each would make a claim call of its own (a fleet of 10,000 reconnecting
 * made 10,000, nearly all finding nothing). A phone asked about is already among those that
 * work signals reach (Pusher.track), so a message queued after the answer still reaches it.
 * Redis failing answers true: the claim then runs, and fails or not, as it would have.
 */
export function workWaitingFor(ctx: Infrastructure, phone: Phone): Promise<boolean> {
  return checks(ctx)
    .load(phone)
    .catch(() => true);
}

function checkTogether(ctx: Infrastructure, phones: Phone[]): Promise<boolean[]> {
  return answerByGroup(
    phones,
    (p) => p.orgId,
    (orgId, group) => {
      const k = ctx.keys.org(orgId);
      return workWaitingScript(ctx.redis, { orgQueue: k.orgQueue(), deviceQueuePrefix: k.deviceQueuePrefix() }, { deviceIds: group.map((p) => p.deviceId) });
    },
  );
}
