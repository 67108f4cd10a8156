import type { AppContext } from '../context/app-context.js';
import { sendMessages } from './send-messages.js';
import type { OptOutOutcome } from '../opt-outs/from-incoming.js';

/**
 * The organization's reply to each number that just opted out or back in, when it configured one
 * (stopReply, startReply; none by default). A system send through the normal path, after the
 * SMS and the change committed: it counts against the daily limit and needs a phone like any
 * send, and when it cannot be sent (no phone, the day's limit) the change stands and the refusal
 * is logged. Keyed by the SMS, so one SMS gets at most one reply. The reply to a stop is the one
 * message the opt-out lets through.
 */
export async function sendOptOutReplies(ctx: AppContext, orgId: string, outcome: OptOutOutcome): Promise<void> {
  const { settings } = outcome;
  if (!settings) return;
  for (const change of outcome.changes) {
    const reply = change.action === 'stop' ? settings.stopReply : settings.startReply;
    if (reply === null) continue;
    await sendMessages(ctx, orgId, { to: change.number, body: reply, optOutReply: change.action }, `opt-out-reply-${change.incomingId}`).catch((err: unknown) =>
      ctx.log.warn({ err, orgId, incomingId: change.incomingId }, 'opt-out reply not sent'),
    );
  }
}
