import type { Queryable } from '../../db/pool.js';

/** Revokes a live device of the organization and marks its socket closed; false when there is none. */
export async function revokeDeviceRow(tx: Queryable, orgId: string, deviceId: string, reason: string): Promise<boolean> {
  const { rowCount } = await tx.query(
    `UPDATE devices SET revoked_at = now(), revoked_reason = $3, updated_at = now(), socket_connected = false,
         socket_changed_at = CASE WHEN socket_connected THEN now() ELSE socket_changed_at END
       WHERE id = $1 AND org_id = $2 AND revoked_at IS NULL`,
    [deviceId, orgId, reason],
  );
  return rowCount !== 0;
}
