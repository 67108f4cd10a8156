import type { Infrastructure } from '../context/infrastructure.js';

/**
 * The part of a device row the claim script decides with, mirrored into Redis. Postgres stays
 * the truth: whoever changes these columns calls syncDeviceState afterwards, and a claim that
 * finds no state in Redis (after a flush) loads it from here first.
 */
export interface DeviceDispatchState {
  orgId: string;
  revoked: boolean;
  outboundEnabled: boolean;
  draining: boolean;
  pacingPerMinute: number | null;
  simDailyCap: number | null;
  defaultSimSubscriptionId: number | null;
}

export async function loadDeviceState(ctx: Infrastructure, deviceId: string): Promise<DeviceDispatchState | undefined> {
  const { rows } = await ctx.db.query(
    `SELECT org_id AS "orgId", revoked_at IS NOT NULL AS revoked, outbound_enabled AS "outboundEnabled", draining,
       pacing_per_minute AS "pacingPerMinute", sim_daily_cap AS "simDailyCap", default_sim_subscription_id AS "defaultSimSubscriptionId"
     FROM devices WHERE id = $1`,
    [deviceId],
  );
  return rows[0] as DeviceDispatchState | undefined;
}

export async function syncDeviceState(ctx: Infrastructure, deviceId: string): Promise<DeviceDispatchState | undefined> {
  const s = await loadDeviceState(ctx, deviceId);
  if (!s) return undefined;
  await ctx.redis.hset(ctx.keys.org(s.orgId).deviceState(deviceId), {
    revoked: s.revoked ? 1 : 0,
    outbound: s.outboundEnabled ? 1 : 0,
    draining: s.draining ? 1 : 0,
    pace: s.pacingPerMinute ?? ctx.config.pacingPerMinute,
    simCap: s.simDailyCap ?? 0,
    defaultSim: s.defaultSimSubscriptionId ?? -1,
  });
  return s;
}
