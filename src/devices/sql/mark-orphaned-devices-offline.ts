import type { Queryable } from '../../db/pool.js';

/** Every connected phone whose process has no lease left goes offline, rows locked in id order; how many. */
export async function markOrphanedDevicesOffline(tx: Queryable): Promise<number> {
  const { rowCount } = await tx.query(
    `WITH orphaned AS MATERIALIZED (
         SELECT id FROM devices d
         WHERE socket_connected AND NOT EXISTS (SELECT 1 FROM api_processes p WHERE p.id = d.socket_process_id)
         ORDER BY id FOR UPDATE)
       UPDATE devices d SET socket_connected = false, socket_changed_at = now()
       FROM orphaned WHERE d.id = orphaned.id`,
  );
  return rowCount ?? 0;
}
