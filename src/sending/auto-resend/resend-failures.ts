import type { AppContext } from '../../context/app-context.js';
import { isHafatraError } from '../../errors/errors.js';
import { sendMessages } from '../send-messages.js';
import { resendRequest } from '../resend-message.js';
import { AVOID_FAILED_PHONE_MS, DEFAULT_RESEND_CODES } from './policy.js';
import { selectDueResends, type DueResend } from './sql/select-due-resends.js';
import { settleResends } from './sql/settle-resends.js';
import { AutoResendMadeAlready } from './sql/claim-auto-resend.js';

/**
 * Automatic resend (docs/decisions.md, "Automatic resend"): a message that failed with a code of
 * its organization's list, and has resends left, is sent again as a new message with
 * `resendOfId` set, one resend fewer, no later expiry, and the phone it failed on avoided for
 * AVOID_FAILED_PHONE_MS. The failed message stays `failed`.
 *
 * Exactly once: the resend's transaction claims the failed message (claimAutoResend), so one
 * automatic resend of a message commits, whoever makes it (a loser's transaction, daily count
 * included, is undone), and the failure is settled with it. A refused resend is settled after; a
 * process dying before either leaves it to the worker's sweep (sweep.ts), which makes it.
 * Returns the ids of the resends created.
 */
export async function resendFailed(ctx: AppContext, failedIds: string[]): Promise<string[]> {
  if (failedIds.length === 0) return [];
  const due = await selectDueResends(ctx.db, failedIds, new Date(ctx.clock.now()), DEFAULT_RESEND_CODES);
  const created: string[] = [];
  const settled: string[] = [];
  for (const failed of due) {
    const outcome = await resendOne(ctx, failed);
    if (outcome.kind === 'created') created.push(outcome.id);
    // A failure of Postgres or Redis is left unsettled: the sweep tries it again.
    if (outcome.kind !== 'deferred') settled.push(failed.id);
  }
  await settleResends(ctx.db, settled);
  return created;
}

type Outcome = { kind: 'created'; id: string } | { kind: 'made-already' } | { kind: 'refused' } | { kind: 'deferred' };

async function resendOne(ctx: AppContext, failed: DueResend): Promise<Outcome> {
  try {
    const { messages } = await sendMessages(ctx, failed.orgId, {
      // A message pinned to a phone (and SIM) stays so, as a manual resend does.
      ...resendRequest(failed),
      automatic: {
        resendsLeft: failed.resendsLeft - 1,
        expiresAt: failed.expiresAt,
        avoid: failed.deviceId ? { deviceId: failed.deviceId, until: ctx.clock.now() + AVOID_FAILED_PHONE_MS } : null,
      },
    });
    return { kind: 'created', id: messages[0]!.id };
  } catch (err) {
    if (err instanceof AutoResendMadeAlready) return { kind: 'made-already' };
    if (isHafatraError(err)) {
      // The daily limit is reached, or no phone can send it: the failure stays the message's last
      // word, and is not tried again (the next send of the organization may need that room).
      ctx.log.warn({ messageId: failed.id, orgId: failed.orgId, reason: err.code, detail: err.message }, 'automatic resend refused: the message stays failed');
      return { kind: 'refused' };
    }
    ctx.log.warn({ err, messageId: failed.id }, 'automatic resend deferred to the sweep');
    return { kind: 'deferred' };
  }
}
