import { createHash } from 'node:crypto';
import type { AppContext } from '../context/app-context.js';
import { errors } from '../errors/errors.js';
import { reservePasswordAttempt } from '../redis/scripts/reserve-password-attempt.js';
import { refundPasswordAttempt } from '../redis/scripts/refund-password-attempt.js';

/**
 * Password checks allowed in a window (docs/security.md): per client address over all accounts,
 * per account from one address, and per account from everywhere. A stranger elsewhere cannot use
 * up the account's own per-address allowance; the account-wide bound is four addresses' worth.
 */
export const PASSWORD_ATTEMPT_LIMITS = { windowMs: 15 * 60_000, perAddress: 20, perAccountAndAddress: 5, perAccount: 20 };

/**
 * The one gate every password check goes through (sign-in, password change, any later path):
 * an attempt is reserved in Redis before the hash is computed, and given back only when the
 * password was right, so concurrent guesses get no more checks than sequential ones. `account` is
 * the email as typed (normalized); it need not exist, and the answer never says whether it does.
 */
export async function checkPasswordLimited(ctx: AppContext, who: { account: string; address: string }, check: () => Promise<boolean>): Promise<boolean> {
  const accountHash = createHash('sha256').update(who.account).digest('hex').slice(0, 32);
  const keys = ctx.keys.passwordAttempts(who.address || 'unknown', accountHash);
  const attempt = await reservePasswordAttempt(ctx.redis, keys, PASSWORD_ATTEMPT_LIMITS);
  if (!attempt.reserved) {
    ctx.metrics.passwordChecks.inc({ outcome: 'limited' });
    const minutes = Math.max(1, Math.ceil(attempt.waitMs / 60_000));
    throw errors.rateLimited(`too many password attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`, attempt.waitMs / 1000);
  }
  let right: boolean;
  try {
    right = await check();
  } catch (err) {
    // Not a guess: the server was too busy to check, or failed. The attempt is given back.
    ctx.metrics.passwordChecks.inc({ outcome: 'busy' });
    await refundPasswordAttempt(ctx.redis, keys);
    throw err;
  }
  ctx.metrics.passwordChecks.inc({ outcome: right ? 'right' : 'wrong' });
  if (right) await refundPasswordAttempt(ctx.redis, keys);
  return right;
}
