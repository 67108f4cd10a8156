import type { Queryable } from '../../db/pool.js';

/** Whether the outbox holds an event: one index probe, no transaction. */
export async function anyUndispatchedEvent(db: Queryable): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM event_outbox ORDER BY event_id LIMIT 1');
  return rows.length > 0;
}
