import type { AppContext } from '../context/app-context.js';
import { newIds } from '../ids/ids.js';
import { measureSms } from '../messages/encoding.js';
import type { BatchFields } from '../messages/sql/insert-messages.js';
import { acceptedMessages, type Message, type SharedFields } from '../messages/message.js';
import type { SendRequest } from './send-request.js';
import { dispatchScore, type DispatchEntry } from '../dispatch-queue/entries.js';
import { batchMetaFormatter } from '../dispatch-queue/dispatch-meta.js';
import { OPTED_OUT } from '../opt-outs/split-opted-out.js';
import { lifetimeMs } from '../scheduling/send-at.js';

export interface PreparedBatch {
  fields: BatchFields;
  /** failureCode: the recipient opted out, its message is created failed. */
  recipients: { id: string; to: string; failureCode?: string }[];
  /** What its messages share, as the 202 writes it. */
  shared: SharedFields;
  messages: Message[];
  entries: DispatchEntry[];
  /** The timeline's creation entry, when it is written (a member's send, an automatic resend): see commitBatch. */
  creation: { source: 'member' | 'system'; code: string | null } | null;
}

/**
 * The hot part of a 500-recipient send: per recipient, only its id and number differ, so the
 * shared JSON and timestamps are formatted once and each message is one object literal.
 */
export function prepareBatch(
  ctx: AppContext,
  org: { orgId: string; autoResendAttempts: number },
  body: SendRequest,
  to: string[],
  batchId: string,
  { optedOut, sendAt }: { optedOut: ReadonlySet<string>; sendAt: Date | null },
): PreparedBatch {
  const { orgId } = org;
  const { automatic } = body;
  const measure = measureSms(body.body);
  const now = new Date(ctx.clock.now());
  // Its lifetime counts from when it is queued: its sendAt when scheduled.
  const ttlEnd = (sendAt ?? now).getTime() + lifetimeMs(body.validFor, ctx.config.messageTtlSeconds);
  const expiresAt = new Date(automatic ? Math.min(ttlEnd, automatic.expiresAt.getTime()) : ttlEnd);
  const fields: BatchFields = {
    orgId,
    body: body.body,
    status: sendAt ? 'accepted' : 'queued',
    segments: measure.segments,
    encoding: measure.encoding,
    requestedDeviceId: body.deviceId ?? null,
    simSubscriptionId: body.simSubscriptionId ?? null,
    batchId,
    resendOfId: body.resendOfId ?? null,
    priority: body.priority === 'high' ? 1 : 0,
    autoResendsLeft: automatic ? automatic.resendsLeft : (body.autoResend ?? org.autoResendAttempts),
    autoResend: automatic !== undefined,
    ignoreSendWindows: body.ignoreSendWindows === true,
    createdAt: now,
    expiresAt,
    sendAt,
  };
  const ids = newIds('message', to.length);
  const created = now.toISOString();
  const expires = expiresAt.toISOString();
  const meta = batchMetaFormatter({ ...fields, expiresAt: expiresAt.getTime(), avoid: automatic?.avoid ?? null });
  const score = dispatchScore(now.getTime(), fields.priority, fields.ignoreSendWindows);
  const recipients = to.map((number, i) => (optedOut.has(number) ? { id: ids[i]!, to: number, failureCode: OPTED_OUT } : { id: ids[i]!, to: number }));
  const shared: SharedFields = { ...fields, createdAt: created, expiresAt: expires, sendAt: sendAt?.toISOString() ?? null };
  const messages = acceptedMessages(shared, recipients);
  // A scheduled batch is queued when due (src/scheduling/); an opted-out recipient never is.
  const queued = sendAt ? [] : optedOut.size === 0 ? recipients : recipients.filter((r) => !('failureCode' in r));
  const entries = queued.map((r): DispatchEntry => ({ id: r.id, orgId, requestedDeviceId: fields.requestedDeviceId, score, meta: meta(r.to) }));
  const creation = automatic
    ? { source: 'system' as const, code: 'auto_resend' }
    : body.optOutReply
      ? { source: 'system' as const, code: 'opt_out_reply' }
      : body.byMember
        ? { source: 'member' as const, code: null }
        : null;
  return { fields, recipients, shared, messages, entries, creation };
}
