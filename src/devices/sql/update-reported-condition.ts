import type { Queryable } from '../../db/pool.js';
import type { PhoneCondition } from '../../dispatch-queue/device-state.js';

/** What a heartbeat's update returns: the phone's condition after it. */
export interface ReportedCondition extends PhoneCondition {
  revokedAt: Date | null;
  defaultSmsApp: boolean | null;
  defaultSmsAppReportedAt: Date | null;
}

/**
 * Marks a live phone seen and sets the columns it reported (`set`: assignments numbered from $2),
 * with when it last said whether it is the default SMS app; undefined for a revoked or unknown phone.
 */
export async function updateReportedCondition(tx: Queryable, deviceId: string, set: { sql: string; values: unknown[] }, defaultSmsAppReported: boolean): Promise<ReportedCondition | undefined> {
  const { rows } = await tx.query<ReportedCondition>(
    `UPDATE devices SET last_seen_at = now()${set.sql ? `, ${set.sql}` : ''}${defaultSmsAppReported ? ', default_sms_app_reported_at = now()' : ''}
       WHERE id = $1 AND revoked_at IS NULL
       RETURNING revoked_at AS "revokedAt", default_sms_app AS "defaultSmsApp", default_sms_app_reported_at AS "defaultSmsAppReportedAt",
         battery_percent AS "batteryPercent", battery_charging AS "batteryCharging", network_type AS "networkType"`,
    [deviceId, ...set.values],
  );
  return rows[0];
}
