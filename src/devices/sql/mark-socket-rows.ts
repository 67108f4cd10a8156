import type { Queryable } from '../../db/pool.js';

export interface SocketMark {
  deviceId: string;
  connected: boolean;
  generation?: number;
  /** An open names the API process holding the socket, whose lease keeps the phone online (presence.ts). */
  processId?: string;
}

/**
 * Opens and closes of distinct phones in one statement, the rows locked in id order first (as
 * claims lock them); the generation after each change, by device id (none: nothing changed).
 */
export async function markSocketRows(db: Queryable, items: SocketMark[]): Promise<Map<string, number>> {
  const { rows } = await db.query<{ id: string; generation: number }>(
    `WITH locked AS MATERIALIZED (SELECT id FROM devices WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE)
       UPDATE devices d SET socket_connected = m.connected, socket_changed_at = now(), last_seen_at = now(),
         socket_generation = d.socket_generation + CASE WHEN m.connected THEN 1 ELSE 0 END,
         socket_process_id = CASE WHEN m.connected THEN m.process_id ELSE d.socket_process_id END
       FROM unnest($1::text[], $2::boolean[], $3::bigint[], $4::text[]) AS m(id, connected, generation, process_id), locked
       WHERE d.id = m.id AND locked.id = m.id
         AND CASE WHEN m.connected THEN d.revoked_at IS NULL ELSE m.generation IS NULL OR d.socket_generation = m.generation END
       RETURNING d.id, d.socket_generation AS generation`,
    [items.map((m) => m.deviceId), items.map((m) => m.connected), items.map((m) => m.generation ?? null), items.map((m) => m.processId ?? null)],
  );
  return new Map(rows.map((r) => [r.id, Number(r.generation)]));
}
