import type { DbClient } from '../../db/pool.js';

/**
 * Takes the oldest events not yet relayed out of the outbox, skipping those another relay
 * holds: removed for good when the transaction commits, back in the outbox if it rolls back.
 * The limit is part of the text, not a parameter, as it always was.
 */
export async function takeUndispatchedEvents(tx: DbClient, limit: number): Promise<string[]> {
  const { rows } = await tx.query(
    `DELETE FROM event_outbox WHERE event_id IN (SELECT event_id FROM event_outbox ORDER BY event_id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
     RETURNING event_id`,
  );
  return rows.map((e) => e.event_id as string);
}
