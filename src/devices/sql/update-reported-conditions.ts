import type { Queryable } from '../../db/pool.js';
import type { PhoneCondition } from '../../dispatch-queue/device-state.js';

/** What a heartbeat's update returns: the phone's condition after it. */
export interface ReportedCondition extends PhoneCondition {
  revokedAt: Date | null;
  defaultSmsApp: boolean | null;
  defaultSmsAppReportedAt: Date | null;
}

/** The columns a heartbeat may report, with their types for the statement's arrays. */
export const REPORTED_COLUMN_TYPES = {
  battery_percent: 'integer',
  battery_charging: 'boolean',
  network_type: 'text',
  uptime_seconds: 'bigint',
  free_storage_bytes: 'bigint',
  app_version: 'text',
  default_sms_app: 'boolean',
} as const;

export type ReportedColumn = keyof typeof REPORTED_COLUMN_TYPES;

/** One heartbeat's update: the columns it reported (the same for every heartbeat of a call), in that order. */
export interface ReportedRow {
  deviceId: string;
  values: unknown[];
}

/**
 * Heartbeats of distinct phones that reported the same columns, in one statement: each live
 * phone marked seen with its own values, and with when it last said whether it is the default
 * SMS app when it said so. The rows are locked in id
 * order first, as claims and socket marks lock them, so concurrent batches never deadlock.
 * Answers each phone's condition after it, by device id (none: a revoked or unknown phone).
 */
export async function updateReportedConditions(
  db: Queryable,
  columns: readonly ReportedColumn[],
  defaultSmsAppReported: boolean,
  rows: readonly ReportedRow[],
): Promise<Map<string, ReportedCondition>> {
  const arrays = columns.map((c, i) => `$${i + 2}::${REPORTED_COLUMN_TYPES[c]}[]`);
  const set = ['last_seen_at = now()', ...columns.map((c, i) => `${c} = v.c${i}`), ...(defaultSmsAppReported ? ['default_sms_app_reported_at = now()'] : [])];
  const { rows: updated } = await db.query<ReportedCondition & { id: string }>(
    `WITH locked AS MATERIALIZED (SELECT id FROM devices WHERE id = ANY($1::text[]) AND revoked_at IS NULL ORDER BY id FOR UPDATE)
       UPDATE devices d SET ${set.join(', ')}
       FROM unnest(${['$1::text[]', ...arrays].join(', ')}) AS v(id${columns.map((_, i) => `, c${i}`).join('')}), locked
       WHERE d.id = v.id AND locked.id = v.id AND d.revoked_at IS NULL
       RETURNING d.id, d.revoked_at AS "revokedAt", d.default_sms_app AS "defaultSmsApp", d.default_sms_app_reported_at AS "defaultSmsAppReportedAt",
         d.battery_percent AS "batteryPercent", d.battery_charging AS "batteryCharging", d.network_type AS "networkType"`,
    [rows.map((r) => r.deviceId), ...columns.map((_, i) => rows.map((r) => r.values[i] ?? null))],
  );
  return new Map(updated.map(({ id, ...condition }) => [id, condition]));
}
