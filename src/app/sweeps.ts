import type { AppContext } from '../context/app-context.js';
import { expirePresence } from '../devices/presence.js';
import { expireQueued, markSilentUnknown, recoverInterruptedClaims } from '../dispatch/sweeps.js';
import { withdrawStuckClaims } from '../dispatch/withdraw-jobs.js';
import { resendMissedFailures } from '../sending/auto-resend/sweep.js';
import { foldTallyDeltas } from '../overview/sql/fold-tally-deltas.js';

/**
 * The sweeps of HAFATRA_SWEEP_INTERVAL_MS by job name, each run on its own timer: none needs
 * another to have run first (each reads what is in Postgres or Redis now), so one failing leaves
 * the others running.
 */
export function lifecycleSweeps(ctx: AppContext): Record<string, () => Promise<unknown>> {
  return {
    'expire-queued': () => expireQueued(ctx),
    'withdraw-stuck-claims': () => withdrawStuckClaims(ctx),
    'mark-silent-unknown': () => markSilentUnknown(ctx),
    'recover-interrupted-claims': () => recoverInterruptedClaims(ctx),
    'resend-missed-failures': () => resendMissedFailures(ctx),
    'expire-presence': () => expirePresence(ctx),
    'fold-tally-deltas': () => foldTallyDeltas(ctx.db),
  };
}
