import type { Queryable } from '../../db/pool.js';

/** Sets the first password of an account made by a link; false when it already has one. */
export async function setPasswordHashIfUnset(db: Queryable, memberId: string, hash: string): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE members SET password_hash = $2, password_changed_at = now() WHERE id = $1 AND password_hash IS NULL`, [memberId, hash]);
  return (rowCount ?? 0) > 0;
}
