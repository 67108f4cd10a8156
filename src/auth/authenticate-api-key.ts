import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { errors } from '../errors/errors.js';
import { authenticateMany } from '../redis/scripts/authenticate.js';
import { TickBatcher } from '../batching/tick-batcher.js';
import { bearerToken, hashSecret, API_KEY_PREFIX } from './api-key-secret.js';
import { findApiKeyByHash } from './sql/find-api-key-by-hash.js';
import { cacheKeyRecord, type CachedKeyRecord } from './api-key-cache.js';
import { isScope, type ApiPrincipal } from './principal.js';
import { touchApiKey } from './sql/touch-api-key.js';

/** One request's answer: its key's batch result, with the tokens granted to the batch dealt out in arrival order. */
type AuthResult = { kind: 'allowed'; record: string } | { kind: 'notCached' } | { kind: 'revoked' } | { kind: 'rateLimited'; retryAfterMs: number };

/**
 * Bearer API key → principal, spending one token of the key's request-rate bucket, in one Redis
 * call (lua/authenticate-2.lua). A key Redis does not know yet is read from Postgres once.
 */
export function apiKeyAuthenticator(ctx: Infrastructure) {
  const scripts = new TickBatcher<string, AuthResult | Error>((hashes) => authenticateTogether(ctx, hashes), 256, 2);
  const runAuth = async (hashHex: string): Promise<AuthResult> => {
    const result = await scripts.load(hashHex);
    if (result instanceof Error) throw result;
    return result;
  };
  // A client sends the same key thousands of times: its hash and its parsed record are kept, in
  // bounded maps. Neither decides anything: Redis is asked on every request (revocation, rate).
  const hashes = new Recent<string>(10_000);
  const principals = new Recent<CachedKeyRecord>(10_000);
  const touchLastUse = lastUseToucher(ctx);
  return async function authenticateApiKey(authorization: string | undefined): Promise<ApiPrincipal> {
    const token = bearerToken(authorization);
    if (!token?.startsWith(API_KEY_PREFIX) || token.length > 200) throw errors.unauthorized();
    let hashHex = hashes.get(token);
    if (hashHex === undefined) hashes.set(token, (hashHex = hashSecret(token).toString('hex')));

    let result = await runAuth(hashHex);
    if (result.kind === 'notCached') {
      const row = await findApiKeyByHash(ctx.db, Buffer.from(hashHex, 'hex'));
      if (!row) throw errors.unauthorized();
      await cacheKeyRecord(ctx, hashHex, row);
      result = await runAuth(hashHex);
    }
    if (result.kind === 'revoked' || result.kind === 'notCached') throw errors.unauthorized();
    if (result.kind === 'rateLimited') throw errors.rateLimited('request rate of this API key exceeded', result.retryAfterMs / 1000);

    const { record } = result;
    let parsed = principals.get(record);
    if (parsed === undefined) {
      const raw = JSON.parse(record) as CachedKeyRecord;
      principals.set(record, (parsed = { ...raw, scopes: raw.scopes.filter(isScope) }));
    }
    if (parsed.expiresAt !== null && parsed.expiresAt <= ctx.clock.now()) throw errors.unauthorized();
    touchLastUse(parsed.keyId);
    return { kind: 'apiKey', orgId: parsed.orgId, keyId: parsed.keyId, scopes: parsed.scopes as ApiPrincipal['scopes'] };
  };
}

/**
 * api_keys.last_used_at (shown in the dashboard) to the minute: a key in use costs one UPDATE a
 * minute per API process, off the request's path; a failed write is only logged.
 */
function lastUseToucher(ctx: Infrastructure) {
  const touched = new Recent<number>(10_000);
  return (keyId: string) => {
    const now = ctx.clock.now();
    if (now - (touched.get(keyId) ?? 0) < 60_000) return;
    touched.set(keyId, now);
    touchApiKey(ctx.db, keyId).catch((err: unknown) => ctx.log.warn({ err, keyId }, 'last use of the API key not recorded'));
  };
}

/** A bounded map of recent results, emptied whole when full: hot entries come back at once. */
class Recent<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: V): void {
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(key, value);
  }
}

/**
 * The requests of one event-loop turn, in one pipelined round trip, and one script call per
 * distinct key: a client polling hard with one key costs Redis one call per turn, not per request.
 * Within a key, requests are admitted in arrival order.
 */
async function authenticateTogether(ctx: Infrastructure, hashes: string[]): Promise<(AuthResult | Error)[]> {
  const wanted = new Map<string, number>();
  for (const h of hashes) wanted.set(h, (wanted.get(h) ?? 0) + 1);
  const distinct = [...wanted.keys()];
  const now = ctx.clock.now();
  const results = await authenticateMany(
    ctx.redis,
    distinct.map((h) => {
      const k = ctx.keys.apiKey(h);
      return {
        keys: { record: k.record(), bucket: k.bucket() },
        args: { now, defaultRatePerSecond: ctx.config.keyRatePerSecond, defaultBurst: ctx.config.keyRateBurst, requests: wanted.get(h)! },
      };
    }),
  );
  const byHash = new Map(distinct.map((h, i) => [h, results[i]!]));
  const admitted = new Map<string, number>();
  return hashes.map((h): AuthResult | Error => {
    const result = byHash.get(h)!;
    if (result instanceof Error || result.kind !== 'allowed') return result;
    const n = admitted.get(h) ?? 0;
    admitted.set(h, n + 1);
    return n < result.granted ? { kind: 'allowed', record: result.record } : { kind: 'rateLimited', retryAfterMs: result.retryAfterMs };
  });
}
