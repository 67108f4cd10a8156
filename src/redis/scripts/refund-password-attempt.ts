import type { Redis } from '../client.js';
import { evalScript, luaScript } from './lua-scripts.js';
import { passwordAttemptKeyList, type PasswordAttemptKeys } from './reserve-password-attempt.js';

const script = luaScript('refundPasswordAttempt');

/** Gives a reservation back after a right password (lua/refundPasswordAttempt-3.lua); answers how many counters it lowered. */
export async function refundPasswordAttempt(redis: Redis, keys: PasswordAttemptKeys): Promise<number> {
  return (await evalScript(redis, script, passwordAttemptKeyList(keys), [])) as number;
}
