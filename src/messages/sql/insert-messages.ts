import type { Queryable } from '../../db/pool.js';
import type { Message, MessageStatus } from '../message.js';
import { textArray } from '../../db/array-params.js';

/** What the messages of one send request share: everything but their id and recipient. */
export interface BatchFields {
  orgId: string;
  body: string;
  status: MessageStatus;
  segments: number;
  encoding: Message['encoding'];
  requestedDeviceId: string | null;
  simSubscriptionId: number | null;
  batchId: string;
  resendOfId: string | null;
  /** 1: the send asked for priority "high"; 0: normal. */
  priority: number;
  /** Automatic resends each message may still have (migration 026). */
  autoResendsLeft: number;
  /** The messages are an automatic resend of resendOfId. */
  autoResend: boolean;
  /** The send ignores the send windows (migration 030). */
  ignoreSendWindows?: boolean;
  createdAt: Date;
  expiresAt: Date;
  /** A scheduled send's due time: its messages are written `accepted` (src/scheduling/). */
  sendAt?: Date | null;
}

/** The batch row that insertBatchWithMessages writes with its messages. */
export interface BatchRow {
  idempotencyKey: string | null;
  requestHash: string;
}

/**
 * The batch row first (its id is the fields' batchId), then its messages, written only when that
 * row is: an idempotency key that already has a batch writes nothing. Ids and recipients travel
 * as arrays (UNNEST keeps the parameter count fixed at any size); the shared fields are sent
 * once, not 500 times.
 */
const STATEMENT = `WITH b AS (
       INSERT INTO batches (id, org_id, idempotency_key, request_hash, message_count) VALUES ($10, $3, $22, $23, $24)
       ON CONFLICT (org_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING id
     ), recipients AS (
       INSERT INTO message_recipients (org_id, to_number, message_id) SELECT $3, t.to_number, t.id FROM unnest($1::text[], $2::text[]) AS t(id, to_number)
       WHERE EXISTS (SELECT 1 FROM b)
     ), tallied AS (
       INSERT INTO message_tally_deltas (org_id, hour, status, delta)
       SELECT $3, date_trunc('hour', $12::timestamptz, 'UTC'), s.status, s.n FROM unnest($20::text[], $21::int[]) AS s(status, n)
       WHERE EXISTS (SELECT 1 FROM b)
     ), written AS (
     INSERT INTO messages (id, org_id, to_number, body, status, segments, encoding, requested_device_id,
       sim_subscription_id, batch_id, resend_of_id, created_at, updated_at, expires_at, priority, auto_resends_left, auto_resend,
       failure_code, failed_at, send_at, ignore_send_windows)
     SELECT t.id, $3, t.to_number, $4, CASE WHEN t.failure_code IS NULL THEN $5 ELSE 'failed' END, $6, $7, $8, $9, $10, $11, $12, $12, $13, $14,
       CASE WHEN t.failure_code IS NULL THEN $15 ELSE 0 END, $16, t.failure_code, CASE WHEN t.failure_code IS NULL THEN NULL ELSE $12::timestamptz END,
       CASE WHEN t.failure_code IS NULL THEN $18::timestamptz END, $19
     FROM unnest($1::text[], $2::text[], $17::text[]) AS t(id, to_number, failure_code)
     WHERE EXISTS (SELECT 1 FROM b)
     )
     SELECT EXISTS (SELECT 1 FROM b) AS written`;

/**
 * One statement for a send: its batch row, its messages and each message's row in
 * message_recipients (migration 039). A recipient with a failureCode (an opted-out number) is
 * created failed with it, and never resent. The statement writes the messages' tally delta too,
 * counted here (migration 040): no trigger counts inserted messages. False, with nothing written,
 * when the idempotency key already has a batch (expire the key's old batch first:
 * expireIdempotencyKey).
 */
export async function insertBatchWithMessages(db: Queryable, f: BatchFields, row: BatchRow, recipients: { id: string; to: string; failureCode?: string }[]): Promise<boolean> {
  const failed = recipients.reduce((n, r) => (r.failureCode ? n + 1 : n), 0);
  const tally = [
    [f.status, recipients.length - failed],
    ['failed', failed],
  ].filter(([, n]) => n !== 0);
  const { rows } = await db.query<{ written: boolean }>({
    name: 'insert-batch-with-messages',
    text: STATEMENT,
    values: [
      textArray(recipients.map((r) => r.id)),
      textArray(recipients.map((r) => r.to)),
      f.orgId,
      f.body,
      f.status,
      f.segments,
      f.encoding,
      f.requestedDeviceId,
      f.simSubscriptionId,
      f.batchId,
      f.resendOfId,
      f.createdAt,
      f.expiresAt,
      f.priority,
      f.autoResendsLeft,
      f.autoResend,
      textArray(recipients.map((r) => r.failureCode)),
      f.sendAt ?? null,
      f.ignoreSendWindows ?? false,
      tally.map(([status]) => status),
      tally.map(([, n]) => n),
      row.idempotencyKey,
      row.requestHash,
      recipients.length,
    ],
  });
  return rows[0]?.written === true;
}
