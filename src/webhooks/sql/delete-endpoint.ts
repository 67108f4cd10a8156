import type { Queryable } from '../../db/pool.js';

/** Its deliveries go with it (ON DELETE CASCADE); their queued jobs then find nothing to do. */
export async function deleteEndpoint(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const { rowCount } = await q.query('DELETE FROM webhook_endpoints WHERE org_id = $1 AND id = $2', [orgId, id]);
  return (rowCount ?? 0) > 0;
}
