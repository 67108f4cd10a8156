import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { claimJobs as claimFromQueues, type ClaimJobsArgs, type ClaimJobsKeys } from '../redis/scripts/claim-jobs.js';
import { utcDay } from '../redis/keys.js';
import { syncDeviceState } from './device-state.js';
import type { ClaimWriter } from './claim-writer.js';
import { returnToQueues } from './return-to-queues.js';
import { HIGH_PRIORITY_LEAD_MS, IGNORE_WINDOWS_LEAD_MS } from './entries.js';
import { decodeDispatchMeta, jobOf } from './dispatch-meta.js';
import type { Job } from './job.js';

export interface ClaimResult {
  jobs: Job[];
  /** > 0 when pacing, an off-net wait or the send windows held messages back: when to try again. */
  retryAfterMs: number;
  refused?: 'revoked' | 'not_sending';
}

export const MAX_CLAIM = 100;

/** The claim script's keys and arguments for one phone's claim of up to `max` messages at `now`. */
export function claimScriptInput(ctx: Infrastructure, device: { orgId: string; deviceId: string }, max: number, now: number): [ClaimJobsKeys, ClaimJobsArgs] {
  const k = ctx.keys.org(device.orgId);
  return [
    {
      deviceQueue: k.deviceQueue(device.deviceId),
      orgQueue: k.orgQueue(),
      queueMeta: k.queueMeta(),
      deviceState: k.deviceState(device.deviceId),
      claiming: k.claiming(),
      netPhones: k.netPhones(),
      carrierPrefixes: k.carrierPrefixes(),
    },
    {
      deviceId: device.deviceId,
      max: Math.min(Math.max(1, max), MAX_CLAIM),
      now,
      pacingPrefix: k.pacingPrefix(device.deviceId),
      utcDay: utcDay(new Date(now)),
      urgentScore: now - HIGH_PRIORITY_LEAD_MS,
      offNetWaitMs: ctx.config.offNetWaitSeconds * 1000,
      // Half the lead: a sender's clock a little ahead of this one still lands in the band.
      ignoreWindowsScore: now - IGNORE_WINDOWS_LEAD_MS / 2,
    },
  ];
}

/**
 * Claims up to `max` messages for a phone: Redis picks them (lua/claimJobs-7.lua), Postgres
 * records the claim with a conditional update (a message cancelled or expired in between is
 * dropped there), then the claim writer confirms the turn's claims in Redis (one call per
 * organization, not awaited) while the jobs go out. Should this process die before the Postgres
 * write, the claiming-set sweep puts the messages back on their queue.
 */
export async function claimJobs(ctx: Infrastructure, writer: ClaimWriter, device: { orgId: string; deviceId: string }, max: number): Promise<ClaimResult> {
  const [keys, args] = claimScriptInput(ctx, device, max, ctx.clock.now());
  const run = () => claimFromQueues(ctx.redis, keys, args);
  let result = await run();
  if (result.kind === 'deviceStateMissing') {
    await syncDeviceState(ctx, device.deviceId);
    result = await run();
  }
  if (result.kind === 'revoked') return { jobs: [], retryAfterMs: 0, refused: 'revoked' };
  // A state still missing after the sync: the device is gone from Postgres too.
  // A resting phone (low battery, no service) is answered as a draining one: nothing new for now.
  if (result.kind === 'notSending' || result.kind === 'resting' || result.kind === 'deviceStateMissing') return { jobs: [], retryAfterMs: 0, refused: 'not_sending' };
  if (result.kind === 'paced' || result.claimed.length === 0) return { jobs: [], retryAfterMs: result.retryAfterMs };
  const { retryAfterMs } = result;
  const picked = result.claimed.map((c) => ({ id: c.id, meta: decodeDispatchMeta(c.meta), sim: c.sim, why: c.why }));

  const won = await writer.load({ orgId: device.orgId, deviceId: device.deviceId, picked: picked.map((p) => ({ id: p.id, sim: p.sim, why: p.why })) });
  if (won === null) {
    await returnToQueues(
      ctx,
      device.orgId,
      picked.map((p) => p.id),
    );
    return { jobs: [], retryAfterMs: 0, refused: 'revoked' };
  }
  const jobs = picked.filter((p) => won.has(p.id)).map((p) => jobOf(p.id, p.meta, p.sim));
  return { jobs, retryAfterMs };
}
