import type { DbClient } from '../../db/pool.js';

/**
 * Locks the oldest events not yet relayed, skipping those another relay holds, until the
 * transaction ends. The limit is part of the text, not a parameter, as it always was.
 */
export async function takeUndispatchedEvents(tx: DbClient, limit: number): Promise<string[]> {
  const { rows } = await tx.query(`SELECT id FROM events WHERE dispatched_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`);
  return rows.map((e) => e.id as string);
}
