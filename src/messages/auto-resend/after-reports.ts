import type { AppContext } from '../../context/app-context.js';
import type { ChangedLean } from '../transitions.js';
import { resendFailed } from './resend-failures.js';

/**
 * Per process, the automatic resends of reported failures run one round after another, off the
 * report path: a phone's reports are acknowledged without waiting for them, and a burst of
 * failures (a phone losing service with 25 jobs) cannot take every connection of the pool.
 */
const queues = new WeakMap<AppContext, Promise<void>>();

/**
 * Called with the messages a round of phone reports changed: the failed ones are resent if due.
 * Never throws; a process dying before it ran leaves the failures to the worker's sweep.
 */
export function resendReportedFailures(ctx: AppContext, changed: readonly ChangedLean[]): void {
  const failed = changed.filter((m) => m.status === 'failed').map((m) => m.id);
  if (failed.length === 0) return;
  const next = (queues.get(ctx) ?? Promise.resolve()).then(() =>
    resendFailed(ctx, failed).then(
      () => undefined,
      (err: unknown) => ctx.log.warn({ err, messages: failed.length }, 'automatic resend deferred to the sweep'),
    ),
  );
  queues.set(ctx, next);
}

/** Resolves once the resends of the reports applied so far are done (tests, shutdown). */
export function reportedFailuresResent(ctx: AppContext): Promise<void> {
  return queues.get(ctx) ?? Promise.resolve();
}
