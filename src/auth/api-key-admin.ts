import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { inTransaction } from '../db/pool.js';
import type { ApiKeyRow, NewApiKey } from './api-key-store.js';
import { findApiKey } from './sql/find-api-key.js';
import { insertApiKey } from './sql/insert-api-key.js';
import { markApiKeyRevoked } from './sql/mark-api-key-revoked.js';
import { tombstoneKey } from './api-key-cache.js';

/** Key lifecycle for the CLI (and later the dashboard): create, rotate, revoke. */
export async function createApiKey(ctx: Infrastructure, key: NewApiKey) {
  return insertApiKey(ctx.db, key);
}

export async function revokeApiKey(ctx: Infrastructure, keyId: string): Promise<ApiKeyRow | undefined> {
  const existing = await findApiKey(ctx.db, keyId);
  if (!existing) return undefined;
  await markApiKeyRevoked(ctx.db, keyId);
  await tombstoneKey(ctx, existing.hashHex);
  const revoked = await findApiKey(ctx.db, keyId);
  if (!revoked) return undefined;
  // The hash is the key's identity in the cache and nothing a caller has a use for.
  const { hashHex: _hash, ...row } = revoked;
  return row;
}

/** A new secret with the same organization, scopes and limits; the old one stops working at once. */
export async function rotateApiKey(ctx: Infrastructure, keyId: string) {
  const existing = await findApiKey(ctx.db, keyId);
  if (!existing || existing.revokedAt) return undefined;
  const created = await inTransaction(ctx.db, async (tx) => {
    const made = await insertApiKey(tx, {
      orgId: existing.orgId,
      name: existing.name,
      scopes: existing.scopes,
      expiresAt: existing.expiresAt,
      ratePerSecond: existing.ratePerSecond,
      rateBurst: existing.rateBurst,
    });
    await markApiKeyRevoked(tx, keyId, made.row.id);
    return made;
  });
  await tombstoneKey(ctx, existing.hashHex);
  return created;
}
