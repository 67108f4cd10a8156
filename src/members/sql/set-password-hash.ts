import type { Queryable } from '../../db/pool.js';

export async function setPasswordHash(db: Queryable, memberId: string, hash: string): Promise<void> {
  await db.query(`UPDATE members SET password_hash = $2, password_changed_at = now() WHERE id = $1`, [memberId, hash]);
}
