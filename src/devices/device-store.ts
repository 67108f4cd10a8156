import type { Queryable } from '../db/pool.js';

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

/** Newest first, like every list of the API; one device when deviceId is given. */
export async function selectDevices(db: Queryable, orgId: string, deviceId?: string): Promise<DeviceRow[]> {
  const { rows } = await db.query(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE org_id = $1 AND ($2::text IS NULL OR id = $2) ORDER BY id DESC`, [orgId, deviceId ?? null]);
  return rows as DeviceRow[];
}

/** The SIM cards of many devices in one query: cards in use first, then by subscription id. */
export async function selectSims(db: Queryable, deviceIds: string[]): Promise<Map<string, SimRow[]>> {
  const byDevice = new Map<string, SimRow[]>(deviceIds.map((id) => [id, []]));
  if (deviceIds.length === 0) return byDevice;
  const { rows } = await db.query(
    `SELECT device_id AS "deviceId", subscription_id AS "subscriptionId", slot_index AS "slotIndex",
       carrier_name AS "carrierName", display_name AS "displayName", phone_number AS "phoneNumber",
       country_iso AS "countryIso", first_seen_at AS "firstSeenAt", last_seen_at AS "lastSeenAt", removed_at AS "removedAt"
     FROM device_sims WHERE device_id = ANY($1)
     ORDER BY device_id, removed_at IS NOT NULL, subscription_id`,
    [deviceIds],
  );
  for (const r of rows as SimRow[]) byDevice.get(r.deviceId)?.push(r);
  return byDevice;
}

/**
 * Messages assigned to each phone and not yet sent, counted exactly in Postgres for many devices
 * at once: those it holds (claimed, sending) and those pinned to it still waiting (queued). Each branch is served by its own partial index.
 */
export async function selectQueueDepths(db: Queryable, deviceIds: string[]): Promise<Map<string, number>> {
  const depths = new Map<string, number>(deviceIds.map((id) => [id, 0]));
  if (deviceIds.length === 0) return depths;
  const { rows } = await db.query(
    `SELECT dev, count(*)::int AS n FROM (
       SELECT device_id AS dev FROM messages WHERE status IN ('claimed', 'sending') AND device_id = ANY($1)
       UNION ALL
       SELECT requested_device_id FROM messages WHERE status = 'queued' AND requested_device_id = ANY($1)
     ) assigned GROUP BY dev`,
    [deviceIds],
  );
  for (const r of rows as { dev: string; n: number }[]) depths.set(r.dev, r.n);
  return depths;
}

/** `col = $n, …` for the columns to change, numbered after the statement's own parameters. */
export function assignments(changes: [column: string, value: unknown][], firstParam: number): { sql: string; values: unknown[] } {
  return {
    sql: changes.map(([column], i) => `${column} = $${firstParam + i}`).join(', '),
    values: changes.map(([, value]) => value),
  };
}

/** The organization a device belongs to (CLI commands name a device by id alone). */
export async function findDeviceOrg(db: Queryable, deviceId: string): Promise<string | undefined> {
  const { rows } = await db.query('SELECT org_id AS "orgId" FROM devices WHERE id = $1', [deviceId]);
  return (rows[0] as { orgId: string } | undefined)?.orgId;
}
