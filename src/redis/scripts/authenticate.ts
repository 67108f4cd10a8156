import type { Redis } from '../client.js';
import { evalScriptMany, luaScript, unexpectedReply } from './lua-scripts.js';

const script = luaScript('authenticate');

/** The first element of lua/authenticate-2.lua's reply. */
export const AuthenticateCode = { allowed: 1, notCached: 0, revoked: -1, rateLimited: -2 } as const;

export interface AuthenticateKeys {
  /** The key's cached record (JSON, or the tombstone "revoked"). */
  record: string;
  bucket: string;
}

export interface AuthenticateArgs {
  now: number;
  /** Used when the record names no rate of its own. */
  defaultRatePerSecond: number;
  defaultBurst: number;
  /** Requests of this key to admit at once. */
  requests: number;
}

export type AuthenticateResult =
  /** The first `granted` requests pass; when fewer than asked, retryAfterMs says when the next token is back. */
  | { kind: 'allowed'; record: string; granted: number; retryAfterMs: number }
  /** The record is not cached: read Postgres, cache it, and call again. */
  | { kind: 'notCached' }
  | { kind: 'revoked' }
  /** None granted; retryAfterMs says when one token is back. */
  | { kind: 'rateLimited'; retryAfterMs: number };

type Reply = [code: number, record: string, retryAfterMs: number, granted: number];

function decode(reply: Reply): AuthenticateResult {
  switch (reply[0]) {
    case AuthenticateCode.allowed:
      return { kind: 'allowed', record: reply[1], granted: reply[3], retryAfterMs: reply[2] };
    case AuthenticateCode.notCached:
      return { kind: 'notCached' };
    case AuthenticateCode.revoked:
      return { kind: 'revoked' };
    case AuthenticateCode.rateLimited:
      return { kind: 'rateLimited', retryAfterMs: reply[2] };
    default:
      throw unexpectedReply(script, reply);
  }
}

/**
 * Authenticates many API keys in one pipeline (lua/authenticate-2.lua once per key): looks up
 * each key's cached record and spends tokens of its bucket. Each entry is the key's result, or
 * the Error its call raised.
 */
export async function authenticateMany(redis: Redis, calls: { keys: AuthenticateKeys; args: AuthenticateArgs }[]): Promise<(AuthenticateResult | Error)[]> {
  const replies = await evalScriptMany(
    redis,
    script,
    calls.map(({ keys, args }) => ({
      keys: [keys.record, keys.bucket],
      args: [args.now, args.defaultRatePerSecond, args.defaultBurst, args.requests],
    })),
  );
  return replies.map((reply) => {
    if (reply instanceof Error) return reply;
    try {
      return decode(reply as Reply);
    } catch (err) {
      return err as Error;
    }
  });
}
