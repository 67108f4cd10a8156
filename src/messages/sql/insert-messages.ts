import type { Queryable } from '../../db/pool.js';
import type { Message, MessageStatus } from '../message.js';

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
}

/**
 * One statement for the whole batch. Only ids and recipients travel as arrays (UNNEST keeps the
 * parameter count fixed at any size); the shared fields are sent once, not 500 times.
 */
export async function insertBatchMessages(db: Queryable, f: BatchFields, recipients: { id: string; to: string }[]): Promise<void> {
  await db.query({
    name: 'insert-batch-messages',
    text: `INSERT INTO messages (id, org_id, to_number, body, status, segments, encoding, requested_device_id,
       sim_subscription_id, batch_id, resend_of_id, created_at, updated_at, expires_at, priority, auto_resends_left, auto_resend,
       ignore_send_windows)
     SELECT t.id, $3, t.to_number, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13, $14, $15, $16, $17
     FROM unnest($1::text[], $2::text[]) AS t(id, to_number)`,
    values: [
      recipients.map((r) => r.id),
      recipients.map((r) => r.to),
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
      f.ignoreSendWindows ?? false,
    ],
  });
}
