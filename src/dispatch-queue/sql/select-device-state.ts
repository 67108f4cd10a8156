import type { Carrier } from '../../orgs/carriers.js';
import type { SendWindows } from '../../send-windows/windows.js';

/** What a heartbeat last said of a phone's battery and network. */
export interface PhoneCondition {
  batteryPercent: number | null;
  batteryCharging: boolean | null;
  networkType: string | null;
}

/**
 * The part of a device row the claim script decides with, mirrored into Redis. Postgres stays
 * the truth: whoever changes these columns (or the phone's SIMs, or its send windows) calls
 * syncDeviceState afterwards, syncOrgDeviceStates for the organization's carriers or windows;
 * a claim that finds no state in Redis (after a flush), no prefix table of the organization, or
 * open times that no longer cover now, loads it from here first.
 */
export interface DeviceDispatchState extends PhoneCondition {
  id: string;
  orgId: string;
  revoked: boolean;
  outboundEnabled: boolean;
  draining: boolean;
  pacingPerMinute: number | null;
  simDailyCap: number | null;
  defaultSimSubscriptionId: number | null;
  /** The SIMs the phone reports now, by subscription id, with the carrierName each last gave. */
  sims: { subscriptionId: number; carrierName: string | null }[];
  /** The organization's carriers column: null when it never set it. */
  carriers: Carrier[] | null;
  /** The organization's send windows and the phone's own (null: none). */
  orgSendWindows: SendWindows | null;
  sendWindows: SendWindows | null;
}

export const SELECT_STATE = `SELECT d.id, d.org_id AS "orgId", d.revoked_at IS NOT NULL AS revoked, d.outbound_enabled AS "outboundEnabled", d.draining,
    d.pacing_per_minute AS "pacingPerMinute", d.sim_daily_cap AS "simDailyCap", d.default_sim_subscription_id AS "defaultSimSubscriptionId",
    d.battery_percent AS "batteryPercent", d.battery_charging AS "batteryCharging", d.network_type AS "networkType", o.carriers,
    o.send_windows AS "orgSendWindows", d.send_windows AS "sendWindows",
    COALESCE((SELECT json_agg(json_build_object('subscriptionId', s.subscription_id, 'carrierName', s.carrier_name) ORDER BY s.subscription_id)
      FROM device_sims s WHERE s.device_id = d.id AND s.removed_at IS NULL), '[]') AS sims
  FROM devices d JOIN organizations o ON o.id = d.org_id`;
