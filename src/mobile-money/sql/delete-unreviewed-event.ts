import type { Queryable } from '../../db/pool.js';

/** Deletes the record unless a member reviewed it; whether it did. */
export async function deleteUnreviewedEvent(db: Queryable, eventId: string): Promise<boolean> {
  return Boolean((await db.query(`DELETE FROM mobile_money_events WHERE id = $1 AND review_status = 'none'`, [eventId])).rowCount);
}
