import type { AppContext } from '../app/context.js';
import type { DevicePrincipal } from '../auth/principal.js';
import { inTransaction } from '../db/pool.js';
import { errors } from '../errors/errors.js';
import { deviceUnauthorized } from './authenticate-device.js';
import { assignments } from './device-store.js';
import { inboundCapability, type InboundCapability } from './inbound-capability.js';
import { syncSims } from './sims.js';
import { trustedTime, type Warning } from '../dispatch/clock.js';
import type { Heartbeat } from './schemas.js';

export interface HeartbeatResult {
  serverTime: string;
  inbound: InboundCapability;
  warning?: Warning;
}

/**
 * A heartbeat (HTTP or socket frame) updates every reported Device field, the SIM list and
 * last_seen_at in one transaction. An omitted field keeps its value; null clears it.
 */
export async function recordHeartbeat(ctx: AppContext, principal: DevicePrincipal, hb: Heartbeat): Promise<HeartbeatResult> {
  const now = Date.now();
  if (hb.sentAt !== undefined && Number.isNaN(Date.parse(hb.sentAt))) throw errors.invalid('sentAt: not a valid date-time');
  // sentAt only tells whether the phone's clock is right: every time stored is the server's.
  const { warning } = trustedTime(hb.sentAt, new Date(now));
  const set = assignments(reportedColumns(hb), 2);
  const row = await inTransaction(ctx.db, async (tx) => {
    const { rows } = await tx.query(
      `UPDATE devices SET last_seen_at = now()${set.sql ? `, ${set.sql}` : ''}${hb.defaultSmsApp === undefined ? '' : ', default_sms_app_reported_at = now()'}
       WHERE id = $1 AND revoked_at IS NULL
       RETURNING revoked_at AS "revokedAt", default_sms_app AS "defaultSmsApp", default_sms_app_reported_at AS "defaultSmsAppReportedAt"`,
      [principal.deviceId, ...set.values],
    );
    if (rows.length === 0) return undefined;
    if (hb.sims !== undefined) await syncSims(tx, principal.deviceId, hb.sims);
    return rows[0] as Parameters<typeof inboundCapability>[0];
  });
  if (!row) throw deviceUnauthorized();
  return {
    serverTime: new Date(now).toISOString(),
    inbound: inboundCapability(row, ctx.config.inboundFreshnessSeconds, now),
    ...(warning ? { warning } : {}),
  };
}

function reportedColumns(hb: Heartbeat): [string, unknown][] {
  const changes: [string, unknown][] = [];
  if (hb.battery !== undefined) changes.push(['battery_percent', hb.battery.percent], ['battery_charging', hb.battery.charging]);
  if (hb.networkType !== undefined) changes.push(['network_type', hb.networkType]);
  if (hb.uptimeSeconds !== undefined) changes.push(['uptime_seconds', hb.uptimeSeconds]);
  if (hb.freeStorageBytes !== undefined) changes.push(['free_storage_bytes', hb.freeStorageBytes]);
  if (hb.appVersion !== undefined) changes.push(['app_version', hb.appVersion]);
  if (hb.defaultSmsApp !== undefined) changes.push(['default_sms_app', hb.defaultSmsApp]);
  return changes;
}

/**
 * The socket server calls this on open (connected: true; returns the new generation) and on
 * close (connected: false, with the generation its open returned). A close is ignored when a
 * newer socket of the same phone opened meanwhile, possibly on another process. Returns the
 * generation after the change, or null when nothing changed (a newer socket, an unknown or
 * revoked device).
 */
export async function markSocket(ctx: AppContext, deviceId: string, connected: boolean, generation?: number): Promise<number | null> {
  const { rows } = await ctx.db.query(
    `UPDATE devices SET socket_connected = $2, socket_changed_at = now(), last_seen_at = now(),
       socket_generation = socket_generation + CASE WHEN $2 THEN 1 ELSE 0 END
     WHERE id = $1 AND CASE WHEN $2 THEN revoked_at IS NULL ELSE $3::bigint IS NULL OR socket_generation = $3 END
     RETURNING socket_generation AS generation`,
    [deviceId, connected, generation ?? null],
  );
  return rows.length === 0 ? null : Number((rows[0] as { generation: number }).generation);
}
