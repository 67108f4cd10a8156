import type { Queryable } from '../../db/pool.js';

export async function markApiKeyRevoked(db: Queryable, id: string, replacedBy: string | null = null): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE api_keys SET revoked_at = now(), replaced_by = COALESCE($2, replaced_by) WHERE id = $1 AND revoked_at IS NULL', [id, replacedBy]);
  return rowCount === 1;
}
