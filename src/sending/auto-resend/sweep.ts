import type { AppContext } from '../../context/app-context.js';
import { resendFailed } from './resend-failures.js';
import { selectUnsettledFailures } from './sql/select-unsettled-failures.js';

/**
 * A failure is left to the sweep only when the report's path did not run (its process died
 * between the report's commit and the resend) or could not finish; waiting this long after it
 * failed keeps the sweep from doing the same work at the same moment (which would still make
 * one resend only: claimAutoResend).
 */
export const SWEEP_GRACE_MS = 10_000;
const PER_PASS = 200;

/** The worker's pass: failures not yet dealt with are resent if due, else settled. Returns the resends created. */
export async function resendMissedFailures(ctx: AppContext): Promise<number> {
  const ids = await selectUnsettledFailures(ctx.db, new Date(ctx.clock.now() - SWEEP_GRACE_MS), PER_PASS);
  const created = await resendFailed(ctx, ids);
  if (created.length > 0) ctx.log.warn({ created: created.length }, 'automatic resends the report path had not made, made by the sweep');
  return created.length;
}
