import type { Queryable } from '../../db/pool.js';

export interface TestEventToInsert {
  eventId: string;
  deliveryId: string;
  orgId: string;
  endpointId: string;
  type: string;
  payload: string;
  createdAt: Date;
}

/** The test event, kept out of the relay's outbox: it goes to this endpoint alone. */
export async function insertTestEvent(q: Queryable, e: TestEventToInsert): Promise<void> {
  await q.query(`INSERT INTO events (id, org_id, type, payload, created_at) VALUES ($1, $2, $3, $4, $5)`, [e.eventId, e.orgId, e.type, e.payload, e.createdAt]);
}
