import type { AppContext } from '../../context/app-context.js';
import type { ChangedLean } from '../transitions.js';
import { resendFailed } from './resend-failures.js';

/**
 * Per process, the automatic resends of reported failures are made off the report path, one
 * round after another: a phone's reports are acknowledged without waiting for them, and a burst
 * of failures (a phone losing service with 25 jobs) is gathered into the next round instead of
 * taking every connection of the pool.
 */
interface Lane {
  pending: string[];
  running: Promise<void> | null;
}
const lanes = new WeakMap<AppContext, Lane>();
const PER_ROUND = 500;

/**
 * Called with the messages a round of phone reports changed: the failed ones are resent if due.
 * Never throws; a process dying before it ran leaves the failures to the worker's sweep.
 */
export function resendReportedFailures(ctx: AppContext, changed: readonly ChangedLean[]): void {
  const failed = changed.filter((m) => m.status === 'failed').map((m) => m.id);
  if (failed.length === 0) return;
  let lane = lanes.get(ctx);
  if (!lane) lanes.set(ctx, (lane = { pending: [], running: null }));
  lane.pending.push(...failed);
  lane.running ??= drain(ctx, lane);
}

async function drain(ctx: AppContext, lane: Lane): Promise<void> {
  while (lane.pending.length > 0) {
    const ids = lane.pending.splice(0, PER_ROUND);
    await resendFailed(ctx, ids).catch((err: unknown) => ctx.log.warn({ err, messages: ids.length }, 'automatic resend deferred to the sweep'));
  }
  lane.running = null;
}

/** Resolves once the resends of the reports applied so far are made (tests, shutdown). */
export async function reportedFailuresResent(ctx: AppContext): Promise<void> {
  const lane = lanes.get(ctx);
  while (lane?.running) await lane.running;
}
