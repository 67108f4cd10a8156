/** A devices row as selected by DEVICE_COLUMNS. */
export interface DeviceRow {
  id: string;
  orgId: string;
  name: string;
  model: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  revokedReason: string | null;
  lastSeenAt: Date | null;
  batteryPercent: number | null;
  batteryCharging: boolean | null;
  networkType: string | null;
  uptimeSeconds: number | null;
  freeStorageBytes: number | null;
  appVersion: string | null;
  outboundEnabled: boolean;
  draining: boolean;
  defaultSimSubscriptionId: number | null;
  socketConnected: boolean;
  socketChangedAt: Date | null;
  defaultSmsApp: boolean | null;
  defaultSmsAppReportedAt: Date | null;
  pacingPerMinute: number | null;
  simDailyCap: number | null;
  /** 'device' (docs/device-protocol.md) or 'mobile' (SMS Gateway for Android, src/mobile-api). */
  protocol: string;
}

export const DEVICE_COLUMNS = `id, org_id AS "orgId", name, model, created_at AS "createdAt", revoked_at AS "revokedAt",
  revoked_reason AS "revokedReason", last_seen_at AS "lastSeenAt", battery_percent AS "batteryPercent",
  battery_charging AS "batteryCharging", network_type AS "networkType", uptime_seconds AS "uptimeSeconds",
  free_storage_bytes AS "freeStorageBytes", app_version AS "appVersion", outbound_enabled AS "outboundEnabled",
  draining, default_sim_subscription_id AS "defaultSimSubscriptionId", socket_connected AS "socketConnected",
  socket_changed_at AS "socketChangedAt", default_sms_app AS "defaultSmsApp",
  default_sms_app_reported_at AS "defaultSmsAppReportedAt", pacing_per_minute AS "pacingPerMinute",
  sim_daily_cap AS "simDailyCap", protocol`;

export interface SimRow {
  deviceId: string;
  subscriptionId: number;
  slotIndex: number | null;
  carrierName: string | null;
  displayName: string | null;
  phoneNumber: string | null;
  countryIso: string | null;
  firstSeenAt: Date;
  lastSeenAt: Date;
  removedAt: Date | null;
}

/** `col = $n, …` for the columns to change, numbered after the statement's own parameters. */
export function assignments(changes: [column: string, value: unknown][], firstParam: number): { sql: string; values: unknown[] } {
  return {
    sql: changes.map(([column], i) => `${column} = $${firstParam + i}`).join(', '),
    values: changes.map(([, value]) => value),
  };
}
