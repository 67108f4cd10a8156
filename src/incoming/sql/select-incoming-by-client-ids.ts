import type { Queryable } from '../../db/pool.js';

/** The device's stored messages with these clientIds. */
export async function selectIncomingByClientIds(tx: Queryable, deviceId: string, clientIds: string[]): Promise<{ id: string; client_id: string }[]> {
  const { rows } = await tx.query<{ id: string; client_id: string }>('SELECT id, client_id FROM incoming_messages WHERE device_id = $1 AND client_id = ANY($2::text[])', [deviceId, clientIds]);
  return rows;
}
