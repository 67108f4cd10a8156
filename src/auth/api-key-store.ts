import type { Queryable } from '../db/pool.js';
import { newId } from '../ids/ids.js';
import { hashSecret, newApiKeySecret, secretHint } from './api-key-secret.js';
import type { Scope } from './principal.js';

export interface ApiKeyRow {
  id: string;
  orgId: string;
  name: string;
  hint: string;
  scopes: Scope[];
  ratePerSecond: number | null;
  rateBurst: number | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  replacedBy: string | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

const COLUMNS = `id, org_id AS "orgId", name, hint, scopes, rate_per_second AS "ratePerSecond",
  rate_burst AS "rateBurst", expires_at AS "expiresAt", revoked_at AS "revokedAt",
  replaced_by AS "replacedBy", last_used_at AS "lastUsedAt", created_at AS "createdAt"`;

export interface NewApiKey {
  orgId: string;
  name: string;
  scopes: readonly Scope[];
  expiresAt?: Date | null;
  ratePerSecond?: number | null;
  rateBurst?: number | null;
}

/** Creates a key; the secret is returned here once and only its hash is stored. */
export async function insertApiKey(db: Queryable, key: NewApiKey): Promise<{ row: ApiKeyRow; secret: string }> {
  const secret = newApiKeySecret();
  const { rows } = await db.query(
    `INSERT INTO api_keys (id, org_id, name, hint, secret_hash, scopes, expires_at, rate_per_second, rate_burst)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
    [newId('apiKey'), key.orgId, key.name, secretHint(secret), hashSecret(secret), key.scopes, key.expiresAt ?? null, key.ratePerSecond ?? null, key.rateBurst ?? null],
  );
  return { row: rows[0] as ApiKeyRow, secret };
}

export async function findApiKeyByHash(db: Queryable, hash: Buffer): Promise<(ApiKeyRow & { hashHex: string }) | undefined> {
  const { rows } = await db.query(`SELECT ${COLUMNS} FROM api_keys WHERE secret_hash = $1`, [hash]);
  return rows[0] ? { ...(rows[0] as ApiKeyRow), hashHex: hash.toString('hex') } : undefined;
}

export async function findApiKey(db: Queryable, id: string): Promise<(ApiKeyRow & { hashHex: string }) | undefined> {
  const { rows } = await db.query(`SELECT ${COLUMNS}, encode(secret_hash, 'hex') AS "hashHex" FROM api_keys WHERE id = $1`, [id]);
  return rows[0] as (ApiKeyRow & { hashHex: string }) | undefined;
}

export async function listApiKeys(db: Queryable, orgId?: string): Promise<ApiKeyRow[]> {
  const { rows } = orgId ? await db.query(`SELECT ${COLUMNS} FROM api_keys WHERE org_id = $1 ORDER BY id`, [orgId]) : await db.query(`SELECT ${COLUMNS} FROM api_keys ORDER BY id`);
  return rows as ApiKeyRow[];
}

export async function markApiKeyRevoked(db: Queryable, id: string, replacedBy: string | null = null): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE api_keys SET revoked_at = now(), replaced_by = COALESCE($2, replaced_by) WHERE id = $1 AND revoked_at IS NULL', [id, replacedBy]);
  return rowCount === 1;
}
