import type { Infrastructure } from '../context/app-context.js';
import { runScript } from '../redis/scripts.js';
import { utcDay } from '../redis/keys.js';
import { syncDeviceState } from '../devices/device-state.js';
import type { ClaimWriter } from './claim-writer.js';
import { returnToQueues } from './return-to-queues.js';

/** What a phone receives for each message it is to send. */
export interface Job {
  messageId: string;
  to: string;
  body: string;
  segments: number;
  simSubscriptionId: number | null;
  expiresAt: string;
}

export interface ClaimResult {
  jobs: Job[];
  /** > 0 when pacing held messages back: when to try again. */
  retryAfterMs: number;
  refused?: 'revoked' | 'not_sending';
}

interface DispatchMeta {
  to: string;
  body: string;
  seg: number;
  sim: number | null;
  exp: number;
}

export const MAX_CLAIM = 100;

/**
 * Claims up to `max` messages for a phone: Redis picks them (lua/claimJobs-5.lua), Postgres
 * records the claim with a conditional update (a message cancelled or expired in between is
 * dropped there), then the claim is confirmed in Redis while the jobs go out. Should this process
 * die before the Postgres write, the claiming-set sweep puts the messages back on their queue.
 */
export async function claimJobs(ctx: Infrastructure, writer: ClaimWriter, device: { orgId: string; deviceId: string }, max: number): Promise<ClaimResult> {
  const k = ctx.keys.org(device.orgId);
  const run = () =>
    runScript<(string | number)[]>(
      ctx.redis,
      'claimJobs',
      [k.deviceQueue(device.deviceId), k.orgQueue(), k.queueMeta(), k.deviceState(device.deviceId), k.claiming()],
      [device.deviceId, Math.min(Math.max(1, max), MAX_CLAIM), Date.now(), k.pacingPrefix(device.deviceId), utcDay()],
    );
  let reply = await run();
  if (reply[0] === -1) {
    await syncDeviceState(ctx, device.deviceId);
    reply = await run();
  }
  const code = Number(reply[0]);
  if (code === -2) return { jobs: [], retryAfterMs: 0, refused: 'revoked' };
  if (code === -3 || code === -1) return { jobs: [], retryAfterMs: 0, refused: 'not_sending' };
  const retryAfterMs = Number(reply[1]);
  const picked: { id: string; meta: DispatchMeta; sim: number }[] = [];
  for (let i = 2; i < reply.length; i += 3) {
    picked.push({ id: String(reply[i]), meta: JSON.parse(String(reply[i + 1])) as DispatchMeta, sim: Number(reply[i + 2]) });
  }
  if (picked.length === 0) return { jobs: [], retryAfterMs };

  const won = await writer.load({ deviceId: device.deviceId, picked: picked.map((p) => ({ id: p.id, sim: p.sim })) });
  if (won === null) {
    await returnToQueues(ctx, device.orgId, picked.map((p) => p.id));
    return { jobs: [], retryAfterMs: 0, refused: 'revoked' };
  }
  // Postgres has decided; the claiming set only needs to hear it. The phone need not wait for
  // that: should the confirmation be lost, the claiming-set sweep finds the messages no longer
  // queued in Postgres and drops them.
  runScript(ctx.redis, 'confirmClaims', [k.claiming(), k.queueMeta()], picked.map((p) => p.id)).catch((err: unknown) =>
    ctx.log.warn({ err, deviceId: device.deviceId }, 'claim confirmation deferred to the sweep'),
  );
  const jobs = picked
    .filter((p) => won.has(p.id))
    .map((p) => ({
      messageId: p.id,
      to: p.meta.to,
      body: p.meta.body,
      segments: p.meta.seg,
      simSubscriptionId: p.sim >= 0 ? p.sim : null,
      expiresAt: new Date(p.meta.exp).toISOString(),
    }));
  return { jobs, retryAfterMs };
}
