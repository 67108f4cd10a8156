import { createHash } from 'node:crypto';
import type { AppContext } from '../context/app-context.js';
import { inTransaction } from '../db/pool.js';
import { errors, isHafatraError } from '../errors/errors.js';
import { newId } from '../ids/ids.js';
import { findOrganization } from '../orgs/sql/find-organization.js';
import { assertCanSend } from '../devices/eligibility.js';
import { admitSend, SEND_TIMING, type Admission } from './admission.js';
import { normalizeRecipients } from '../messages/recipients.js';
import { insertBatchWithMessages } from '../messages/sql/insert-messages.js';
import { expireIdempotencyKey } from '../messages/sql/expire-idempotency-key.js';
import { findBatchByKey } from '../messages/sql/find-batch-by-key.js';
import { markBatchesDispatched } from '../messages/sql/mark-batches-dispatched.js';
import { selectMessagesByBatch } from '../messages/sql/select-messages-by-batch.js';
import { recordEvents } from '../events/record-events.js';
import { subscribedTypes } from '../events/sql/select-subscribed-types.js';
import { readAhead, unwrap } from './read-ahead.js';
import { toMessage } from '../messages/message.js';
import { acceptedMessagesJson } from '../messages/accepted-json.js';
import type { SendRequest, SendResult } from './send-request.js';
import { prepareBatch, type PreparedBatch } from './prepare-batch.js';
import { answerOf, storedAnswer } from './stored-answer.js';
import { splitOptedOut } from '../opt-outs/split-opted-out.js';
import { recordOptedOutCreation } from '../opt-outs/sql/record-opted-out-creation.js';
import { dueTime } from '../scheduling/send-at.js';
import { scheduleBatches } from '../scheduling/schedule.js';
import { AutoResendMadeAlready, claimAutoResend } from './auto-resend/sql/claim-auto-resend.js';
import { insertCreationEvents } from './sql/insert-creation-events.js';

/** Canonical form of a request, so a retried request matches its idempotency key whatever its key order. */
function requestHash(body: SendRequest): string {
  const fields: unknown[] = [body.to, body.body, body.deviceId ?? null, body.simSubscriptionId ?? null, body.resendOfId ?? null];
  // Only when present, so that a request without them keeps the hash it had before they existed.
  if (body.sendAt !== undefined || body.validFor !== undefined) fields.push(body.sendAt === undefined ? null : Date.parse(body.sendAt), body.validFor ?? null);
  // Sending at night or in the morning is another request; added only when set, so the hashes
  // of requests without it (held for 24 hours) stay what they were.
  if (body.ignoreSendWindows === true) fields.push({ ignoreSendWindows: true });
  const canonical = JSON.stringify(fields);
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * POST /v1/messages. All or nothing: every recipient valid, the daily limit and an eligible phone,
 * or nothing is written. The batch row, its messages (queued) and their webhook events are one
 * transaction, so a 202 means durable; the batch is then put on the Redis dispatch queues, and
 * by the reconciler should this process die (or Redis fail) first.
 */
export async function sendMessages(ctx: AppContext, orgId: string, body: SendRequest, idempotencyKey?: string): Promise<SendResult> {
  return (await sendMessagesAnswer(ctx, orgId, body, idempotencyKey)).result;
}

/** What a send answers, and its JSON as the 202's body (built from the batch without its objects: src/messages/accepted-json.ts). */
export interface SendAnswer {
  result: SendResult;
  json(): string;
}

/** sendMessages, for the route that writes its answer: the JSON of a new batch is made without JSON.stringify. */
export async function sendMessagesAnswer(ctx: AppContext, orgId: string, body: SendRequest, idempotencyKey?: string): Promise<SendAnswer> {
  const step = await admitAndCommit(ctx, orgId, body, idempotencyKey);
  if (step.kind === 'answered') return { result: step.result, json: () => JSON.stringify(step.result) };
  const { batch, admission } = step;
  ctx.metrics.messagesAccepted.inc(batch.messages.length);
  const { batchId, sendAt } = batch.fields;
  // A scheduled batch goes on the schedule instead of the queues (src/scheduling/), then counts as handed over.
  const handOver = sendAt ? scheduleBatches(ctx, [{ batchId, sendAt }]).then(() => markBatchesDispatched(ctx.db, [batchId])) : ctx.dispatch.dispatchBatch([batchId], batch.entries);
  await handOver.catch((err: unknown) => {
    // Durable but not on a queue yet: the reconciler dispatches the batch; the client still gets its 202.
    ctx.log.warn({ err, batchId }, 'dispatch deferred to the reconciler');
  });
  const result: SendResult = { batchId: batch.fields.batchId, messages: batch.messages };
  await admission.complete(() => storedAnswer(batch)).catch((err: unknown) => ctx.log.warn({ err }, 'idempotency record not stored'));
  return { result, json: () => acceptedMessagesJson(batch.shared, batch.recipients, `{"batchId":${JSON.stringify(batchId)},"messages":`, '}') };
}

export type SendStep = { kind: 'answered'; result: SendResult } | { kind: 'committed'; batch: PreparedBatch; admission: Extract<Admission, { kind: 'admitted' }> };

/**
 * A send up to its commit: answered already (a replay), or committed and still to be dispatched
 * and recorded for replays. A process dying right after this step is the worst case for a retry
 * with the same key (the crash tests stop here).
 */
export async function admitAndCommit(ctx: AppContext, orgId: string, body: SendRequest, idempotencyKey?: string): Promise<SendStep> {
  if (body.simSubscriptionId !== undefined && body.deviceId === undefined) {
    throw errors.invalid('simSubscriptionId: requires deviceId');
  }
  const org = await findOrganization(ctx.db, orgId);
  if (!org) throw errors.unauthorized();
  const recipients = normalizeRecipients(body.to, org.defaultCountry);
  // Read beside the opt-outs (a round trip each, not one after the other), used in their turn
  // below; a request refused before then ignores them.
  const canSend = readAhead(assertCanSend(ctx.db, { orgId, deviceId: body.deviceId, simSubscriptionId: body.simSubscriptionId }));
  const subscribed = readAhead(subscribedTypes(ctx.db, orgId));
  // Opted-out recipients are created failed (opted_out): not counted, not queued, no phone needed.
  const { optedOut, sendable } = await splitOptedOut(ctx.db, orgId, recipients, body.optOutReply === 'stop');
  const sendAt = dueTime(body.sendAt, ctx.clock.now());
  const hash = requestHash(body);
  const batchId = newId('batch');
  const answered = (result: SendResult): SendStep => ({ kind: 'answered', result });

  let admission: Admission;
  try {
    admission = await admitSend(ctx, { orgId, dailyLimit: org.dailyLimit, idempotencyKey, requestHash: hash, count: sendable, batchId });
  } catch (err) {
    // Redis no longer knows a committed key (flushed, or taken over after a crash), so the
    // admission counted its retry as a new send, and a full day refused it: the batch answers.
    if (idempotencyKey !== undefined && isHafatraError(err) && err.code === 'rate_limited' && (await findBatchByKey(ctx.db, orgId, idempotencyKey))) {
      return answered(await replayFromPostgres(ctx, orgId, idempotencyKey, hash));
    }
    throw err;
  }
  if (admission.kind === 'replay') return answered(answerOf(admission.responseJson));

  try {
    // Redis forgot this key (flushed, or its request died) but Postgres may remember it: a retry
    // gets its original answer even if no phone could take a new send now.
    if (idempotencyKey !== undefined && (await findBatchByKey(ctx.db, orgId, idempotencyKey))) {
      const replay = await replayFromPostgres(ctx, orgId, idempotencyKey, hash);
      await admission.release('batch-exists');
      return answered(replay);
    }
    if (sendable > 0) unwrap(await canSend);
    const batch = prepareBatch(ctx, { orgId, autoResendAttempts: org.autoResendAttempts }, body, recipients, batchId, { optedOut, sendAt });
    if (!(await commitBatch(ctx, batch, hash, idempotencyKey, admission.admittedAt, unwrap(await subscribed)))) {
      // Another request with this key committed first (one that took the key over, or the slow one it took over from).
      const replay = await replayFromPostgres(ctx, orgId, idempotencyKey!, hash);
      await admission.release('batch-exists');
      return answered(replay);
    }
    return { kind: 'committed', batch, admission };
  } catch (err) {
    await admission.release('failed');
    throw err;
  }
}

/** One send request, ready to write: the shared fields, each message as the API shows it, and its dispatch entry. */
/**
 * The batch row, its messages and their webhook events in one transaction; false when the
 * idempotency key already has a batch. Rolled back when it reaches its end past the commit
 * deadline: the reconciler may then be refunding its reservation as the count of a dead request.
 */
async function commitBatch(ctx: AppContext, batch: PreparedBatch, hash: string, idempotencyKey: string | undefined, admittedAt: number, subscribed: ReadonlySet<string>): Promise<boolean> {
  const { fields } = batch;
  return inTransaction(ctx.db, async (tx) => {
    if (idempotencyKey !== undefined) await expireIdempotencyKey(tx, fields.orgId, idempotencyKey);
    // An automatic resend (made without an idempotency key, so its batch row is always written)
    // takes its right first: a second maker waits on the failed message's row, then gets false.
    if (fields.autoResend && !(await claimAutoResend(tx, fields.resendOfId!))) throw new AutoResendMadeAlready(fields.resendOfId!);
    if (!(await insertBatchWithMessages(tx, fields, { idempotencyKey: idempotencyKey ?? null, requestHash: hash }, batch.recipients))) return false;
    // API sends leave their creation entry implied (timelineOf); a member's is written, to name
    // them, and an automatic resend's, to say so (source system, code auto_resend).
    const optedOut = await recordOptedOutCreation(tx, batch.recipients, batch.creation?.source ?? 'api', fields.createdAt);
    if (batch.creation) {
      await insertCreationEvents(
        tx,
        (optedOut === 0 ? batch.recipients : batch.recipients.filter((r) => r.failureCode === undefined)).map((r) => r.id),
        batch.creation,
        fields.createdAt,
        fields.status,
      );
    }
    // The spec has no event for `accepted`: a scheduled message's `message.queued` comes when it is due.
    const events = batch.messages.filter((m) => m.status !== 'accepted').map((m) => ({ type: m.status === 'failed' ? ('message.failed' as const) : ('message.queued' as const), data: () => m }));
    if (events.length > 0) await recordEvents(tx, fields.orgId, events, subscribed);
    const elapsedMs = ctx.clock.now() - admittedAt;
    if (elapsedMs > SEND_TIMING.commitDeadlineMs) throw new Error(`send reached its commit ${elapsedMs} ms after admission; rolled back`);
    return true;
  });
}

/** Redis forgot the key (flushed) but Postgres remembers the batch: answer as the first time. */
async function replayFromPostgres(ctx: AppContext, orgId: string, key: string, hash: string): Promise<SendResult> {
  const batch = await findBatchByKey(ctx.db, orgId, key);
  if (!batch || batch.requestHash !== hash) throw errors.conflict('this idempotency-key was already used with a different request');
  const rows = await selectMessagesByBatch(ctx.db, orgId, batch.id);
  return { batchId: batch.id, messages: rows.map(toMessage) };
}
