import type { Queryable } from '../../db/pool.js';

export interface InboundDeviceRow {
  revoked_at: Date | null;
  default_sms_app: boolean | null;
  default_sms_app_reported_at: Date | null;
  protocol: string;
  retention_days: number;
}

/** What decides whether a device of the organization may store received SMS, and for how long. */
export async function selectInboundDevice(db: Queryable, deviceId: string, orgId: string): Promise<InboundDeviceRow | undefined> {
  const { rows } = await db.query<InboundDeviceRow>(
    `SELECT d.revoked_at, d.default_sms_app, d.default_sms_app_reported_at, d.protocol, o.retention_days
     FROM devices d JOIN organizations o ON o.id = d.org_id WHERE d.id = $1 AND d.org_id = $2`,
    [deviceId, orgId],
  );
  return rows[0];
}
