import type { DbClient } from '../../db/pool.js';

export async function markEventsDispatched(tx: DbClient, eventIds: string[]): Promise<void> {
  await tx.query('UPDATE events SET dispatched_at = now() WHERE id = ANY($1::text[])', [eventIds]);
}
