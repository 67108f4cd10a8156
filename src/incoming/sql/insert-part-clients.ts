import type { Queryable } from '../../db/pool.js';

/** Keeps the joined parts' clientIds, pointing at the message they became. */
export async function insertPartClients(tx: Queryable, deviceId: string, clientIds: string[], incomingId: string): Promise<void> {
  await tx.query(
    `INSERT INTO incoming_part_clients (device_id, client_id, incoming_id)
     SELECT $1, unnest($2::text[]), $3 ON CONFLICT DO NOTHING`,
    [deviceId, clientIds, incomingId],
  );
}
