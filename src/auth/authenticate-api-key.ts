import type { AppContext } from '../app/context.js';
import { errors } from '../errors/errors.js';
import { runScriptMany, type LuaArg } from '../redis/scripts.js';
import { TickBatcher } from '../batching/tick-batcher.js';
import { bearerToken, hashSecret, API_KEY_PREFIX } from './api-key-secret.js';
import { findApiKeyByHash } from './api-key-store.js';
import { cacheKeyRecord, type CachedKeyRecord } from './api-key-cache.js';
import { isScope, type ApiPrincipal } from './principal.js';

type AuthResult = [code: number, record: string, retryAfterMs: number];

/**
 * Bearer API key → principal, spending one token of the key's request-rate bucket, in one Redis
 * call (lua/authenticate-2.lua). A key Redis does not know yet is read from Postgres once.
 */
export function apiKeyAuthenticator(ctx: AppContext) {
  // Concurrent requests authenticate in one pipelined round trip.
  const scripts = new TickBatcher<{ keys: string[]; args: LuaArg[] }, AuthResult | Error>((calls) =>
    runScriptMany<AuthResult>(ctx.redis, 'authenticate', calls),
  );
  const runAuth = async (call: { keys: string[]; args: LuaArg[] }): Promise<AuthResult> => {
    const result = await scripts.load(call);
    if (result instanceof Error) throw result;
    return result;
  };
  return async function authenticateApiKey(authorization: string | undefined): Promise<ApiPrincipal> {
    const token = bearerToken(authorization);
    if (!token || !token.startsWith(API_KEY_PREFIX) || token.length > 200) throw errors.unauthorized();
    const hash = hashSecret(token);
    const hashHex = hash.toString('hex');
    const k = ctx.keys.apiKey(hashHex);
    const run = () =>
      runAuth({ keys: [k.record(), k.bucket()], args: [Date.now(), ctx.config.keyRatePerSecond, ctx.config.keyRateBurst] });

    let [code, record, retryAfterMs] = await run();
    if (code === 0) {
      const row = await findApiKeyByHash(ctx.db, hash);
      if (!row) throw errors.unauthorized();
      await cacheKeyRecord(ctx, hashHex, row);
      [code, record, retryAfterMs] = await run();
    }
    if (code === -1 || code === 0) throw errors.unauthorized();
    if (code === -2) throw errors.rateLimited('request rate of this API key exceeded', retryAfterMs / 1000);

    const parsed = JSON.parse(record) as CachedKeyRecord;
    if (parsed.expiresAt !== null && parsed.expiresAt <= Date.now()) throw errors.unauthorized();
    return { kind: 'apiKey', orgId: parsed.orgId, keyId: parsed.keyId, scopes: parsed.scopes.filter(isScope) };
  };
}
