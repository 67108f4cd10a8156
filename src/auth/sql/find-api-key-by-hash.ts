import type { Queryable } from '../../db/pool.js';
import { type ApiKeyRow, API_KEY_COLUMNS } from '../api-key-store.js';

export async function findApiKeyByHash(db: Queryable, hash: Buffer): Promise<(ApiKeyRow & { hashHex: string }) | undefined> {
  const { rows } = await db.query<ApiKeyRow>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE secret_hash = $1`, [hash]);
  return rows[0] ? { ...rows[0], hashHex: hash.toString('hex') } : undefined;
}
