import type { AppContext } from '../../context/app-context.js';
import type { ChangedLean } from '../transitions.js';
import { resendFailed } from './resend-failures.js';

const PER_ROUND = 500;

/**
 * Per process, the automatic resends of reported failures are made off the report path, one
 * round after another: a phone's reports are acknowledged without waiting for them, and a burst
 * of failures (a phone losing service with 25 jobs) is gathered into the next round instead of
 * taking every connection of the pool. One per process (`ctx.resends`, app/runtime.ts).
 */
export class ResendLane {
  private pending: string[] = [];
  private running: Promise<void> | null = null;

  add(ctx: AppContext, failedIds: string[]): void {
    if (failedIds.length === 0) return;
    this.pending.push(...failedIds);
    this.running ??= this.drain(ctx);
  }

  /** Resolves once the resends of the reports applied so far are made (tests, shutdown). */
  async drained(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(ctx: AppContext): Promise<void> {
    while (this.pending.length > 0) {
      const ids = this.pending.splice(0, PER_ROUND);
      await resendFailed(ctx, ids).catch((err: unknown) => ctx.log.warn({ err, messages: ids.length }, 'automatic resend deferred to the sweep'));
    }
    this.running = null;
  }
}

/**
 * Called with the messages a round of phone reports changed: the failed ones are resent if due.
 * Never throws; a process dying before it ran leaves the failures to the worker's sweep.
 */
export function resendReportedFailures(ctx: AppContext, changed: readonly ChangedLean[]): void {
  ctx.resends.add(
    ctx,
    changed.filter((m) => m.status === 'failed').map((m) => m.id),
  );
}
