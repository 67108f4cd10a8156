import type { Queryable } from '../../db/pool.js';

/** Records that the key was used now. */
export async function touchApiKey(db: Queryable, keyId: string): Promise<void> {
  await db.query(`UPDATE api_keys SET last_used_at = now() WHERE id = $1`, [keyId]);
}
