import type { Queryable } from '../../db/pool.js';
import { type ApiKeyRow, API_KEY_COLUMNS } from '../api-key-store.js';

export async function listApiKeys(db: Queryable, orgId?: string): Promise<ApiKeyRow[]> {
  const { rows } = orgId
    ? await db.query<ApiKeyRow>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE org_id = $1 ORDER BY id`, [orgId])
    : await db.query<ApiKeyRow>(`SELECT ${API_KEY_COLUMNS} FROM api_keys ORDER BY id`);
  return rows;
}
