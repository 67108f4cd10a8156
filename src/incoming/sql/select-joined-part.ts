import type { Queryable } from '../../db/pool.js';

/** The message a part (by its clientId) was joined into, if it was. */
export async function selectJoinedPart(tx: Queryable, deviceId: string, clientId: string): Promise<string | undefined> {
  const joined = await tx.query<{ incoming_id: string }>('SELECT incoming_id FROM incoming_part_clients WHERE device_id = $1 AND client_id = $2', [deviceId, clientId]);
  return joined.rows[0]?.incoming_id;
}
