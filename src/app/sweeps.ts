import type { AppContext } from '../context/app-context.js';
import { expirePresence } from '../devices/presence.js';
import { expireQueued, markSilentUnknown, recoverInterruptedClaims } from '../dispatch/sweeps.js';
import { withdrawStuckClaims } from '../dispatch/withdraw-jobs.js';
import { resendMissedFailures } from '../messages/auto-resend/sweep.js';
import { foldTallyDeltas } from '../overview/tallies.js';
import type { BackgroundJob } from '../periodic/background-job.js';

/**
 * The sweeps of HAFATRA_SWEEP_INTERVAL_MS, each a job of its own: none needs another to have run
 * first (each reads what is in Postgres or Redis now), so one failing leaves the others running.
 */
export function lifecycleSweeps(ctx: AppContext): BackgroundJob[] {
  const intervalMs = ctx.config.sweepIntervalMs;
  return [
    { name: 'expire-queued', intervalMs, run: () => expireQueued(ctx) },
    { name: 'withdraw-stuck-claims', intervalMs, run: () => withdrawStuckClaims(ctx) },
    { name: 'mark-silent-unknown', intervalMs, run: () => markSilentUnknown(ctx) },
    { name: 'recover-interrupted-claims', intervalMs, run: () => recoverInterruptedClaims(ctx) },
    { name: 'resend-missed-failures', intervalMs, run: () => resendMissedFailures(ctx) },
    { name: 'expire-presence', intervalMs, run: () => expirePresence(ctx) },
    { name: 'fold-tally-deltas', intervalMs, run: () => foldTallyDeltas(ctx.db) },
  ];
}
