import type { Queryable } from '../../db/pool.js';

/**
 * Marks connected again the phones whose sockets this process still holds, where no newer socket
 * opened since (same generation) and the phone is not revoked. Rows locked in id order, as
 * claims lock them.
 */
export async function reassertHeldSockets(db: Queryable, processId: string, sockets: { deviceId: string; generation: number }[]): Promise<void> {
  await db.query(
    `WITH locked AS MATERIALIZED (SELECT id FROM devices WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE)
     UPDATE devices d SET socket_connected = true, socket_process_id = $3, socket_changed_at = now()
     FROM unnest($1::text[], $2::bigint[]) AS m(id, generation), locked
     WHERE d.id = m.id AND locked.id = m.id AND d.socket_generation = m.generation AND d.revoked_at IS NULL
       AND NOT (d.socket_connected AND d.socket_process_id IS NOT DISTINCT FROM $3)`,
    [sockets.map((s) => s.deviceId), sockets.map((s) => s.generation), processId],
  );
}
