import type { Queryable } from '../../db/pool.js';

/** The messages a phone holds (claimed or sending). */
export async function selectHeldMessageIds(tx: Queryable, deviceId: string): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>(`SELECT id FROM messages WHERE device_id = $1 AND status IN ('claimed', 'sending')`, [deviceId]);
  return rows.map((r) => r.id);
}
