import type { Queryable } from '../../db/pool.js';
import { type ApiKeyRow, API_KEY_COLUMNS } from '../api-key-store.js';

export async function findApiKey(db: Queryable, id: string): Promise<(ApiKeyRow & { hashHex: string }) | undefined> {
  const { rows } = await db.query<ApiKeyRow & { hashHex: string }>(`SELECT ${API_KEY_COLUMNS}, encode(secret_hash, 'hex') AS "hashHex" FROM api_keys WHERE id = $1`, [id]);
  return rows[0];
}
