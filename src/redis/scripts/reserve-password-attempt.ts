import type { Redis } from '../client.js';
import { evalScript, luaScript, unexpectedReply } from './lua-scripts.js';

const script = luaScript('reservePasswordAttempt');

/** The first element of lua/reservePasswordAttempt-3.lua's reply. */
export const ReservePasswordAttemptCode = { reserved: 1, refused: 0 } as const;

export interface PasswordAttemptKeys {
  byAddress: string;
  byAccountAndAddress: string;
  byAccount: string;
}

export interface PasswordAttemptLimits {
  windowMs: number;
  perAddress: number;
  perAccountAndAddress: number;
  perAccount: number;
}

export type PasswordAttempt = { reserved: true } | { reserved: false; waitMs: number };

export const passwordAttemptKeyList = (k: PasswordAttemptKeys) => [k.byAddress, k.byAccountAndAddress, k.byAccount];

/** Reserves one password check before hashing (lua/reservePasswordAttempt-3.lua); a refusal says when the full counter resets. */
export async function reservePasswordAttempt(redis: Redis, keys: PasswordAttemptKeys, limits: PasswordAttemptLimits): Promise<PasswordAttempt> {
  const reply = (await evalScript(redis, script, passwordAttemptKeyList(keys), [limits.windowMs, limits.perAddress, limits.perAccountAndAddress, limits.perAccount])) as [number, number];
  switch (reply[0]) {
    case ReservePasswordAttemptCode.reserved:
      return { reserved: true };
    case ReservePasswordAttemptCode.refused:
      return { reserved: false, waitMs: reply[1] };
    default:
      throw unexpectedReply(script, reply);
  }
}
