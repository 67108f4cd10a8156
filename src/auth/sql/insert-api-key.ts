import type { Queryable } from '../../db/pool.js';
import { newId } from '../../ids/ids.js';
import { hashSecret, newApiKeySecret, secretHint } from '../api-key-secret.js';
import { type ApiKeyRow, API_KEY_COLUMNS, type NewApiKey } from '../api-key-store.js';

/** Creates a key; the secret is returned here once and only its hash is stored. */
export async function insertApiKey(db: Queryable, key: NewApiKey): Promise<{ row: ApiKeyRow; secret: string }> {
  const secret = newApiKeySecret();
  const { rows } = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (id, org_id, name, hint, secret_hash, scopes, expires_at, rate_per_second, rate_burst)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${API_KEY_COLUMNS}`,
    [newId('apiKey'), key.orgId, key.name, secretHint(secret), hashSecret(secret), key.scopes, key.expiresAt ?? null, key.ratePerSecond ?? null, key.rateBurst ?? null],
  );
  return { row: rows[0]!, secret };
}
