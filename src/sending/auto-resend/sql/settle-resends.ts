import type { Queryable } from '../../../db/pool.js';

/** Failures dealt with (resent, or the resend refused): no later pass resends them. */
export async function settleResends(db: Queryable, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query('UPDATE messages SET auto_resends_left = 0 WHERE id = ANY($1::text[]) AND auto_resends_left > 0', [ids]);
}
