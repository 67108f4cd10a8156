import type { Infrastructure } from '../infrastructure/infrastructure.js';
import type { ApiKeyRow } from './api-key-store.js';

/**
 * Redis holds each key's record so a request authenticates in one round trip on any process.
 * A revoked key's record is overwritten by a tombstone (never just deleted), and a record read
 * from Postgres is cached with SET NX, so a request racing a revocation can never put the live
 * record back: revocation is seen on the very next request everywhere.
 */
const RECORD_TTL_SECONDS = 86_400;
const TOMBSTONE_TTL_SECONDS = 7 * 86_400;

export interface CachedKeyRecord {
  keyId: string;
  orgId: string;
  scopes: string[];
  expiresAt: number | null;
  ratePerSecond: number | null;
  rateBurst: number | null;
}

export function toCachedRecord(row: ApiKeyRow): CachedKeyRecord {
  return {
    keyId: row.id,
    orgId: row.orgId,
    scopes: row.scopes,
    expiresAt: row.expiresAt ? row.expiresAt.getTime() : null,
    ratePerSecond: row.ratePerSecond,
    rateBurst: row.rateBurst,
  };
}

export async function cacheKeyRecord(ctx: Infrastructure, hashHex: string, row: ApiKeyRow): Promise<void> {
  const key = ctx.keys.apiKey(hashHex).record();
  if (row.revokedAt) await ctx.redis.set(key, 'revoked', 'EX', TOMBSTONE_TTL_SECONDS);
  else await ctx.redis.set(key, JSON.stringify(toCachedRecord(row)), 'EX', RECORD_TTL_SECONDS, 'NX');
}

export async function tombstoneKey(ctx: Infrastructure, hashHex: string): Promise<void> {
  await ctx.redis.set(ctx.keys.apiKey(hashHex).record(), 'revoked', 'EX', TOMBSTONE_TTL_SECONDS);
}
