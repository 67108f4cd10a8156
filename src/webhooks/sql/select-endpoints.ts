import type { Queryable } from '../../db/pool.js';
import { ENDPOINT_COLUMNS, type EndpointRow } from '../endpoint-row.js';

export async function selectEndpoints(q: Queryable, orgId: string): Promise<EndpointRow[]> {
  const { rows } = await q.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE org_id = $1 ORDER BY id`, [orgId]);
  return rows;
}
