import type { Queryable } from '../../db/pool.js';

/** The messages pinned to a phone that no phone holds yet (queued). */
export async function selectPinnedQueuedIds(tx: Queryable, deviceId: string): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>(`SELECT id FROM messages WHERE requested_device_id = $1 AND status = 'queued'`, [deviceId]);
  return rows.map((r) => r.id);
}
