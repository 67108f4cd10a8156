import type { Queryable } from '../../db/pool.js';
import type { SendWindows } from '../windows.js';

/** A phone's own send windows and its organization's; undefined when the organization has no such phone. */
export async function selectDeviceSendWindows(db: Queryable, orgId: string, deviceId: string): Promise<{ own: SendWindows | null; org: SendWindows | null } | undefined> {
  const { rows } = await db.query<{ own: SendWindows | null; org: SendWindows | null }>(
    `SELECT d.send_windows AS own, o.send_windows AS org FROM devices d JOIN organizations o ON o.id = d.org_id WHERE d.id = $1 AND d.org_id = $2`,
    [deviceId, orgId],
  );
  return rows[0];
}
