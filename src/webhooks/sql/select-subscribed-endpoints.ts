import type { DbClient } from '../../db/pool.js';

export interface EventEndpoint {
  eventId: string;
  type: string;
  endpointId: string;
}

/**
 * Each event with every enabled endpoint of its organization subscribed to its type and created
 * no later than the event (an endpoint is not sent what happened before it existed).
 */
export async function selectSubscribedEndpoints(tx: DbClient, eventIds: string[]): Promise<EventEndpoint[]> {
  const { rows } = await tx.query<EventEndpoint>(
    `SELECT e.id AS "eventId", e.type, w.id AS "endpointId"
       FROM events e JOIN webhook_endpoints w
         ON w.org_id = e.org_id AND w.enabled AND e.type = ANY(w.event_types) AND w.created_at <= e.created_at
       WHERE e.id = ANY($1::text[]) ORDER BY e.id, w.id`,
    [eventIds],
  );
  return rows;
}
