import type { AppContext } from '../context/app-context.js';
import type { StatusReportWriter } from '../dispatch/status-reports.js';
import type { AppDevice } from './authenticate-app.js';
import { reportMessages } from './report-messages.js';
import type { ReportItem } from './schemas.js';
import type { SmsStatusPayload } from './webhook-events.js';

export type StatusEvent = 'sms:sent' | 'sms:delivered' | 'sms:failed';

/**
 * A status webhook as the snapshot PATCH /message would have carried for that recipient: the
 * same path then decides (report-messages.ts), so the two merge. A status never goes backwards
 * (a `sent` after `delivered` changes nothing), a webhook repeating what a PATCH already said is
 * a harmless repeat, and one that comes first (the app sends both on its own queues) moves the
 * message through the steps before it. Another phone's or an unknown message changes nothing.
 */
export function reportOfStatusEvent(event: StatusEvent, p: SmsStatusPayload): ReportItem {
  const phoneNumber = p.recipient ?? p.phoneNumber ?? '';
  if (event === 'sms:sent') return { id: p.messageId, state: 'Sent', recipients: [{ phoneNumber, state: 'Sent' }], states: p.sentAt ? { Sent: p.sentAt } : {} };
  if (event === 'sms:delivered') return { id: p.messageId, state: 'Delivered', recipients: [{ phoneNumber, state: 'Delivered' }], states: p.deliveredAt ? { Delivered: p.deliveredAt } : {} };
  return { id: p.messageId, state: 'Failed', recipients: [{ phoneNumber, state: 'Failed', error: p.reason ?? null }], states: p.failedAt ? { Failed: p.failedAt } : {} };
}

export async function applyStatusEvent(ctx: AppContext, writer: StatusReportWriter, device: AppDevice, event: StatusEvent, p: SmsStatusPayload): Promise<void> {
  await reportMessages(ctx, writer, device, [reportOfStatusEvent(event, p)]);
}
