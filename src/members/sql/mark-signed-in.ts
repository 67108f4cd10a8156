import type { Queryable } from '../../db/pool.js';

export async function markSignedIn(db: Queryable, memberId: string): Promise<void> {
  await db.query(`UPDATE members SET last_sign_in_at = now() WHERE id = $1`, [memberId]);
}
