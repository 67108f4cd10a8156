import type { AppContext } from '../../src/context/app-context.js';
import { claimJobs } from '../../src/redis/scripts/claim-jobs.js';
import { utcDay } from '../../src/redis/keys.js';
import { HIGH_PRIORITY_LEAD_MS } from '../../src/dispatch-queue/entries.js';

/** The Redis half of a claim without its Postgres half: what a process that died mid-claim (or a Postgres outage) leaves. */
export async function claimInRedisOnly(ctx: AppContext, orgId: string, deviceId: string): Promise<void> {
  const k = ctx.keys.org(orgId);
  await claimJobs(
    ctx.redis,
    { deviceQueue: k.deviceQueue(deviceId), orgQueue: k.orgQueue(), queueMeta: k.queueMeta(), deviceState: k.deviceState(deviceId), claiming: k.claiming() },
    { deviceId, max: 5, now: Date.now(), pacingPrefix: k.pacingPrefix(deviceId), utcDay: utcDay(), urgentScore: Date.now() - HIGH_PRIORITY_LEAD_MS },
  );
}
