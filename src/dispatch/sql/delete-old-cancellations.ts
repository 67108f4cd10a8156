import type { Queryable } from '../../db/pool.js';

/** Requests answered by a report rather than a cancel count for nothing once the job left `claimed`: they go after a day. */
export async function deleteOldCancellations(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM mobile_cancellations WHERE requested_at < now() - interval '1 day'`);
}
