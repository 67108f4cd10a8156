import type { AppContext } from '../context/app-context.js';
import type { StatusReport } from '../dispatch/schemas.js';
import type { StatusReportWriter } from '../dispatch/status-reports.js';
import { takeBackJobs } from '../dispatch/withdraw-jobs.js';
import { PATH_ID } from '../ids/ids.js';
import { appDate, parseAppDate } from './app-dates.js';
import type { AppDevice } from './authenticate-app.js';
import { cancellationReasons, forgetCancellations } from '../dispatch/cancellations.js';
import { failureCodeOf } from './failure-codes.js';
import type { AppState, ReportItem } from './schemas.js';

/** When the phone says the message reached a state, as Hafatra reads it (unreadable: the server's time). */
function at(item: ReportItem, state: AppState): string | undefined {
  const text = item.states?.[state];
  const date = text === undefined ? null : parseAppDate(text);
  return date ? appDate(date) : undefined;
}

/**
 * A report is a snapshot of where the message stands on the phone (reports repeat and arrive in
 * any order): it becomes the native reports of every step up to that state, in order. A step the
 * message already passed is a harmless repeat, so a status never goes backwards; `Failed` after
 * `Sent` (a failed delivery report) still records `sent` first. `Pending` (and the `Cancelling`
 * a phone may echo) say only that the phone holds the job: nothing moves.
 */
export function nativeReports(item: ReportItem): StatusReport[] {
  const messageId = item.id;
  const step = (status: StatusReport['status'], state: AppState): StatusReport => {
    const when = at(item, state);
    return { messageId, status, ...(when ? { at: when } : {}) };
  };
  const sending = step('sending', item.states?.Processed ? 'Processed' : item.state);
  const sent = step('sent', item.states?.Sent ? 'Sent' : item.state);
  switch (item.state) {
    case 'Processed':
      return [sending];
    case 'Sent':
      return [sending, sent];
    case 'Delivered':
      return [sending, sent, step('delivered', 'Delivered')];
    case 'Failed': {
      const error = item.recipients?.find((r) => r.state === 'Failed' && r.error)?.error ?? item.recipients?.find((r) => r.error)?.error;
      const failed: StatusReport = { ...step('failed', 'Failed'), failureCode: failureCodeOf(error) };
      return [...(item.states?.Processed ? [sending] : []), ...(item.states?.Sent ? [sent] : []), failed];
    }
    default:
      return [];
  }
}

/**
 * Reports arrive in order nearly always: the last step alone is tried first (one transition, where
 * the whole chain would write each earlier step again as a repeat). Refused, because an earlier
 * report is missing or late, the steps go in order; a failure always goes with its steps.
 */
async function applySnapshot(writer: StatusReportWriter, deviceId: string, steps: StatusReport[]): Promise<void> {
  if (steps.length === 0) return;
  // A failure after `Sent` could apply alone (failed is allowed from claimed) and hide the send.
  if (steps.at(-1)!.status !== 'failed') {
    const last = await writer.submit(deviceId, steps.at(-1)!);
    if (!('error' in last) || steps.length === 1) return;
  }
  for (const step of steps) await writer.submit(deviceId, step);
}

/**
 * `PATCH /message`: the phone's reports go through the native status-report path (the same
 * transitions, timeline, webhooks, automatic resend and `limit_exceeded` cool-down), and only
 * on this phone's own jobs: another phone's id, or an unknown one, changes nothing and is not
 * an error (the app would retry it for hours). `Cancelled` is the phone's confirmation that a job
 * it was asked back (or dropped) never left: only then does it go to another phone.
 */
export async function reportMessages(ctx: AppContext, writer: StatusReportWriter, device: AppDevice, items: ReportItem[]): Promise<void> {
  // Ids that cannot be Hafatra's name no job of this phone: nothing to look up.
  const ours = items.filter((item) => PATH_ID.test(item.id));
  await Promise.all(ours.map((item) => applySnapshot(writer, device.deviceId, nativeReports(item))));
  const cancelled = [...new Set(ours.filter((item) => item.state === 'Cancelled').map((item) => item.id))];
  if (cancelled.length > 0) {
    const reasons = await cancellationReasons(ctx, device.deviceId, cancelled);
    const avoidUntil = ctx.clock.now() + Math.max(ctx.config.claimTimeoutSeconds, 60) * 1000;
    await takeBackJobs(ctx, device.deviceId, cancelled, reasons, avoidUntil);
    await forgetCancellations(ctx, device.deviceId, cancelled);
  }
  // A request the phone answered otherwise (it had sent the job) counts for nothing once the job
  // left `claimed`; such rows are cleared with the old ones (cancellations.ts), not per report.
}
