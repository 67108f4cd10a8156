import type { Queryable } from '../../db/pool.js';
import { ENDPOINT_COLUMNS, type EndpointRow } from '../endpoint-row.js';

export interface EndpointToInsert {
  id: string;
  orgId: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  secret: string;
}

export async function insertEndpointRow(q: Queryable, e: EndpointToInsert): Promise<EndpointRow> {
  const { rows } = await q.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (id, org_id, url, description, event_types, secret)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${ENDPOINT_COLUMNS}`,
    [e.id, e.orgId, e.url, e.description, e.eventTypes, e.secret],
  );
  return rows[0]!;
}
