import type { Queryable } from '../../db/pool.js';
import type { MessageStatus } from '../schemas.js';

export interface NewMessage {
  id: string;
  orgId: string;
  to: string;
  body: string;
  status: MessageStatus;
  segments: number;
  encoding: 'gsm7' | 'ucs2';
  requestedDeviceId: string | null;
  simSubscriptionId: number | null;
  batchId: string;
  resendOfId: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** One statement for the whole batch (UNNEST keeps the parameter count fixed at any size). */
export async function insertMessages(db: Queryable, rows: NewMessage[]): Promise<void> {
  const col = <K extends keyof NewMessage>(k: K) => rows.map((r) => r[k]);
  await db.query(
    `INSERT INTO messages (id, org_id, to_number, body, status, segments, encoding, requested_device_id,
       sim_subscription_id, batch_id, resend_of_id, created_at, updated_at, expires_at)
     SELECT id, org_id, to_number, body, status, segments, encoding, requested_device_id, sim_subscription_id,
       batch_id, resend_of_id, created_at, created_at, expires_at
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[],
       $9::int[], $10::text[], $11::text[], $12::timestamptz[], $13::timestamptz[])
       AS t(id, org_id, to_number, body, status, segments, encoding, requested_device_id, sim_subscription_id,
         batch_id, resend_of_id, created_at, expires_at)`,
    [
      col('id'), col('orgId'), col('to'), col('body'), col('status'), col('segments'), col('encoding'),
      col('requestedDeviceId'), col('simSubscriptionId'), col('batchId'), col('resendOfId'), col('createdAt'), col('expiresAt'),
    ],
  );
}
