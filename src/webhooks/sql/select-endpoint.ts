import type { Queryable } from '../../db/pool.js';
import { ENDPOINT_COLUMNS, type EndpointRow } from '../endpoint-row.js';

export async function selectEndpoint(q: Queryable, orgId: string, id: string): Promise<EndpointRow | null> {
  const { rows } = await q.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE org_id = $1 AND id = $2`, [orgId, id]);
  return rows[0] ?? null;
}
