import type { Redis } from '../client.js';
import { evalScript, luaScript, unexpectedReply } from './lua-scripts.js';

const script = luaScript('countSignInFailures');

/** The first element of lua/countSignInFailures-2.lua's reply. */
export const CountSignInFailuresCode = { allowed: 1, refused: 0 } as const;

export interface SignInFailureLimits {
  windowMs: number;
  perAddress: number;
  perEmail: number;
}

export type SignInAttempt = { allowed: true } | { allowed: false; waitMs: number };

/**
 * Whether a sign-in attempt may go on, counting a failed one when `countFailure`
 * (lua/countSignInFailures-2.lua). A refused attempt says when the counter at its limit resets.
 */
export async function countSignInFailures(redis: Redis, keys: { byAddress: string; byEmail: string }, args: SignInFailureLimits & { countFailure: boolean }): Promise<SignInAttempt> {
  const reply = (await evalScript(redis, script, [keys.byAddress, keys.byEmail], [args.windowMs, args.perAddress, args.perEmail, args.countFailure ? 1 : 0])) as [number, number];
  switch (reply[0]) {
    case CountSignInFailuresCode.allowed:
      return { allowed: true };
    case CountSignInFailuresCode.refused:
      return { allowed: false, waitMs: reply[1] };
    default:
      throw unexpectedReply(script, reply);
  }
}
