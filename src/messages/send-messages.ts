import { createHash } from 'node:crypto';
import type { AppContext } from '../app/context.js';
import { inTransaction } from '../db/pool.js';
import { errors } from '../errors/errors.js';
import { newId, newIds } from '../ids/ids.js';
import { findOrganization } from '../orgs/org-store.js';
import { assertCanSend } from '../devices/eligibility.js';
import { admitSend } from './admission.js';
import { measureSms } from './encoding.js';
import { normalizeRecipients } from './recipients.js';
import { insertBatchMessages, type BatchFields } from './sql/insert-messages.js';
import { insertBatch, findBatchByKey } from './sql/batches.js';
import { selectMessagesByBatch } from './sql/select-messages.js';
import { dispatchBatch } from './queue-accepted.js';
import { recordEvents } from '../events/record-events.js';
import { toMessage, type MessageRow } from './message-row.js';
import type { SendMessagesBody } from './schemas.js';

export interface SendResult {
  batchId: string;
  messages: ReturnType<typeof toMessage>[];
}

export interface SendRequest extends SendMessagesBody {
  resendOfId?: string;
}

/** Canonical form of a request, so a retried request matches its idempotency key whatever its key order. */
function requestHash(body: SendRequest): string {
  const canonical = JSON.stringify([body.to, body.body, body.deviceId ?? null, body.simSubscriptionId ?? null, body.resendOfId ?? null]);
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * POST /v1/messages. All or nothing: every recipient valid, the daily limit and an eligible phone,
 * or nothing is written. The batch row, its messages (queued) and their webhook events are one
 * transaction, so a 202 means durable; the batch is then put on the Redis dispatch queues, and
 * by the reconciler should this process die (or Redis fail) first.
 */
export async function sendMessages(ctx: AppContext, orgId: string, body: SendRequest, idempotencyKey?: string): Promise<SendResult> {
  if (body.simSubscriptionId !== undefined && body.deviceId === undefined) {
    throw errors.invalid('simSubscriptionId: requires deviceId');
  }
  const org = await findOrganization(ctx.db, orgId);
  if (!org) throw errors.unauthorized();
  const recipients = normalizeRecipients(body.to, org.defaultCountry);
  const hash = requestHash(body);

  const admission = await admitSend(ctx, { orgId, dailyLimit: org.dailyLimit, idempotencyKey, requestHash: hash, count: recipients.length });
  if (admission.kind === 'replay') return JSON.parse(admission.responseJson) as SendResult;

  let rows: MessageRow[];
  try {
    // Redis forgot this key (flushed) but Postgres may remember it: a retry gets its original
    // answer even if no phone could take a new send now.
    if (idempotencyKey !== undefined && (await findBatchByKey(ctx.db, orgId, idempotencyKey))) {
      const replay = await replayFromPostgres(ctx, orgId, idempotencyKey, hash);
      await admission.release();
      return replay;
    }
    await assertCanSend(ctx.db, { orgId, deviceId: body.deviceId, simSubscriptionId: body.simSubscriptionId });
    const committed = await commitBatch(ctx, orgId, body, recipients, hash, idempotencyKey);
    if ('replay' in committed) {
      await admission.release();
      return committed.replay;
    }
    rows = committed.rows;
  } catch (err) {
    await admission.release();
    throw err;
  }

  await dispatchBatch(ctx, [rows[0]!.batchId!], rows).catch((err: unknown) => {
    // Durable but not on a queue yet: the reconciler dispatches the batch; the client still gets its 202.
    ctx.log.warn({ err, batchId: rows[0]?.batchId }, 'dispatch deferred to the reconciler');
  });
  const result: SendResult = { batchId: rows[0]!.batchId!, messages: rows.map(toMessage) };
  await admission.complete(JSON.stringify(result)).catch((err: unknown) => ctx.log.warn({ err }, 'idempotency record not stored'));
  return result;
}

async function commitBatch(
  ctx: AppContext,
  orgId: string,
  body: SendRequest,
  recipients: string[],
  hash: string,
  idempotencyKey: string | undefined,
): Promise<{ rows: MessageRow[] } | { replay: SendResult }> {
  const measure = measureSms(body.body);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ctx.config.messageTtlSeconds * 1000);
  const batchId = newId('batch');
  const ids = newIds('message', recipients.length);
  const fields: BatchFields = {
    orgId, body: body.body, status: 'queued', segments: measure.segments, encoding: measure.encoding,
    requestedDeviceId: body.deviceId ?? null, simSubscriptionId: body.simSubscriptionId ?? null, batchId,
    resendOfId: body.resendOfId ?? null, createdAt: now, expiresAt,
  };
  const pairs = recipients.map((to, i) => ({ id: ids[i]!, to }));
  const rows = pairs.map((p): MessageRow => ({
    ...fields, id: p.id, to: p.to, deviceId: null, failureCode: null, updatedAt: now, claimedAt: null, sentAt: null, deliveredAt: null, failedAt: null,
  }));
  const inserted = await inTransaction(ctx.db, async (tx) => {
    if (!(await insertBatch(tx, { id: batchId, orgId, idempotencyKey: idempotencyKey ?? null, requestHash: hash, count: rows.length }))) {
      return false;
    }
    await insertBatchMessages(tx, fields, pairs);
    await recordEvents(tx, orgId, rows.map((m) => ({ type: 'message.queued', data: () => toMessage(m) })));
    return true;
  });
  if (!inserted) return { replay: await replayFromPostgres(ctx, orgId, idempotencyKey!, hash) };
  return { rows };
}

/** Redis forgot the key (flushed) but Postgres remembers the batch: answer as the first time. */
async function replayFromPostgres(ctx: AppContext, orgId: string, key: string, hash: string): Promise<SendResult> {
  const batch = await findBatchByKey(ctx.db, orgId, key);
  if (!batch || batch.requestHash !== hash) throw errors.conflict('this idempotency-key was already used with a different request');
  const rows = await selectMessagesByBatch(ctx.db, orgId, batch.id);
  return { batchId: batch.id, messages: rows.map(toMessage) };
}
