import type { Infrastructure } from '../context/infrastructure.js';

/** Below this, a phone that is not charging takes no new job: it may die with jobs in hand. */
export const LOW_BATTERY_PERCENT = 15;

/** What a heartbeat last said of a phone's battery and network. */
export interface PhoneCondition {
  batteryPercent: number | null;
  batteryCharging: boolean | null;
  networkType: string | null;
}

/**
 * A phone that should take nothing new for now: its battery is low and not charging, or it has
 * no service. It keeps what it holds; the next heartbeat that says otherwise lets it claim again.
 */
export function isResting(c: PhoneCondition): boolean {
  const lowBattery = c.batteryPercent !== null && c.batteryPercent < LOW_BATTERY_PERCENT && c.batteryCharging !== true;
  return lowBattery || c.networkType?.toLowerCase() === 'none';
}

/**
 * The part of a device row the claim script decides with, mirrored into Redis. Postgres stays
 * the truth: whoever changes these columns calls syncDeviceState afterwards, and a claim that
 * finds no state in Redis (after a flush) loads it from here first.
 */
export interface DeviceDispatchState extends PhoneCondition {
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
       pacing_per_minute AS "pacingPerMinute", sim_daily_cap AS "simDailyCap", default_sim_subscription_id AS "defaultSimSubscriptionId",
       battery_percent AS "batteryPercent", battery_charging AS "batteryCharging", network_type AS "networkType"
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
    resting: isResting(s) ? 1 : 0,
  });
  return s;
}
