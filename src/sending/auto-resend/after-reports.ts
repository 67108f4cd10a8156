import type { AppContext } from '../../context/app-context.js';
import type { ChangedLean } from '../../messages/transitions.js';
import { resendFailed } from './resend-failures.js';

/** Failed messages the resend lane (`ctx.resends`, a SerialLane) takes per round. */
export const RESENDS_PER_ROUND = 500;

/**
 * Called with the messages a round of phone reports changed: the failed ones are resent if due,
 * off the report path, one round at a time per process (`ctx.resends`): a phone's reports are
 * acknowledged without waiting, and a burst of failures (a phone losing service with 25 jobs)
 * is gathered into the next round instead of taking every connection of the pool. Never throws;
 * a process dying before it ran leaves the failures to the worker's sweep.
 */
export function resendReportedFailures(ctx: AppContext, changed: readonly ChangedLean[]): void {
  ctx.resends.add(
    changed.filter((m) => m.status === 'failed').map((m) => m.id),
    async (ids) => {
      await resendFailed(ctx, ids).catch((err: unknown) => ctx.log.warn({ err, messages: ids.length }, 'automatic resend deferred to the sweep'));
    },
  );
}
