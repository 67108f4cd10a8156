import type { AppContext } from '../context/app-context.js';
import { errors } from '../errors/errors.js';
import { selectMessage } from '../messages/sql/select-message.js';
import { TERMINAL_STATUSES, type MessageRow } from '../messages/message.js';
import { sendMessages } from './send-messages.js';
import type { SendRequest, SendResult } from './send-request.js';

/** A new message to the same recipient with the same body (and phone/SIM if one was named). */
export async function resendMessage(ctx: AppContext, orgId: string, id: string, idempotencyKey?: string, byMember = false): Promise<SendResult> {
  const original = await selectMessage(ctx.db, orgId, id);
  if (!original) throw errors.notFound('message');
  if (!TERMINAL_STATUSES.has(original.status)) {
    throw errors.invalidTransition(`message is ${original.status}; only a message in a final status can be resent`);
  }
  return sendMessages(ctx, orgId, { ...resendRequest(original), byMember }, idempotencyKey);
}

/** What a resend (manual or automatic) sends again: the same recipient and body, the same pinned phone and SIM if any, the same priority and send windows. */
export function resendRequest(original: Pick<MessageRow, 'id' | 'to' | 'body' | 'requestedDeviceId' | 'simSubscriptionId' | 'priority' | 'ignoreSendWindows'>): SendRequest {
  return {
    to: original.to,
    body: original.body,
    ...(original.requestedDeviceId ? { deviceId: original.requestedDeviceId } : {}),
    ...(original.requestedDeviceId && original.simSubscriptionId !== null ? { simSubscriptionId: original.simSubscriptionId } : {}),
    // A code resent is as urgent as it was.
    ...(original.priority > 0 ? { priority: 'high' as const } : {}),
    ...(original.ignoreSendWindows ? { ignoreSendWindows: true } : {}),
    resendOfId: original.id,
  };
}
