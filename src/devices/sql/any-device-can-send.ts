import type { Queryable } from '../../db/pool.js';

/** Whether some phone of the organization is live, with outbound enabled and not draining. */
export async function anyDeviceCanSend(db: Queryable, orgId: string): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>(`SELECT EXISTS (SELECT 1 FROM devices WHERE org_id = $1 AND revoked_at IS NULL AND outbound_enabled AND NOT draining) AS ok`, [orgId]);
  return rows[0]!.ok;
}
