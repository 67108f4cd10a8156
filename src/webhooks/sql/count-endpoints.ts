import type { Queryable } from '../../db/pool.js';

/** How many webhook endpoints the organization has. */
export async function countEndpoints(q: Queryable, orgId: string): Promise<number> {
  const {
    rows: [count],
  } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints WHERE org_id = $1', [orgId]);
  return count!.n;
}
