import type { DbClient } from '../../db/pool.js';

export interface NewDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
}

/** One pending delivery per row, in one statement; an (endpoint, event) pair already there is kept. */
export async function insertPendingDeliveries(tx: DbClient, deliveries: NewDelivery[], firstAttemptAt: Date): Promise<void> {
  await tx.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, status, next_attempt_at)
         SELECT id, endpoint_id, event_id, event_type, 'pending', $5::timestamptz
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(id, endpoint_id, event_id, event_type)
         ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
    [deliveries.map((d) => d.id), deliveries.map((d) => d.endpointId), deliveries.map((d) => d.eventId), deliveries.map((d) => d.eventType), firstAttemptAt],
  );
}
