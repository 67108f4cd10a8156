import type { AppContext } from '../context/app-context.js';
import type { DevicePrincipal } from '../auth/principal.js';
import type { ReportableStatus, StatusReport } from '../dispatch/schemas.js';
import { writeReports } from '../dispatch/status-reports.js';
import { parseAppDate } from './app-dates.js';
import type { SmsStatusPayload } from './webhook-events.js';
import { failureCodeOf } from './failure-codes.js';

/** The statuses a report of each event implies, in order: each step is one the native path allows. */
const STEPS: Record<'sms:sent' | 'sms:delivered' | 'sms:failed', ReportableStatus[]> = {
  'sms:sent': ['sending', 'sent'],
  'sms:delivered': ['sending', 'sent', 'delivered'],
  'sms:failed': ['failed'],
};

/**
 * A status webhook, through the status-report path of native phones: a message moves only
 * forward (a `sent` after `delivered`, or a webhook repeating what PATCH /message already said,
 * changes nothing), and only if it is this phone's. The webhook may come before the PATCH that
 * says `Processed` (the app sends both on its own queues), so the steps before are reported too;
 * those already reached are repeats. An unknown or another phone's message is ignored, as the
 * app expects a 2xx for it.
 */
export async function applyStatusEvent(ctx: AppContext, principal: DevicePrincipal, event: keyof typeof STEPS, p: SmsStatusPayload): Promise<void> {
  const when = event === 'sms:sent' ? p.sentAt : event === 'sms:delivered' ? p.deliveredAt : p.failedAt;
  const at = when ? parseAppDate(when)?.toISOString() : undefined;
  const reports: StatusReport[] = STEPS[event].map((status) => ({
    messageId: p.messageId,
    status,
    ...(at ? { at } : {}),
    ...(status === 'failed' ? { failureCode: failureCodeOf(p.reason) } : {}),
  }));
  await writeReports(
    ctx,
    reports.map((report) => ({ deviceId: principal.deviceId, report })),
  );
}
