import type { AppContext } from '../../src/context/app-context.js';
import { claimJobs } from '../../src/redis/scripts/claim-jobs.js';
import { claimScriptInput } from '../../src/dispatch-queue/claim.js';

/** The Redis half of a claim without its Postgres half: what a process that died mid-claim (or a Postgres outage) leaves. */
export async function claimInRedisOnly(ctx: AppContext, orgId: string, deviceId: string): Promise<void> {
  await claimJobs(ctx.redis, ...claimScriptInput(ctx, { orgId, deviceId }, 5, Date.now()));
}
