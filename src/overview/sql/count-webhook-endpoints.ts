import type { Queryable } from '../../db/pool.js';

/** The organization's webhook endpoints, and how many of them are failing (or were disabled for it). */
export async function countWebhookEndpoints(db: Queryable, orgId: string): Promise<{ endpoints: number; failing: number }> {
  const { rows } = await db.query<{ endpoints: number; failing: number }>(
    `SELECT count(*)::int AS endpoints,
              count(*) FILTER (WHERE (enabled AND failing_since IS NOT NULL) OR disabled_reason = 'failing')::int AS failing
         FROM webhook_endpoints WHERE org_id = $1`,
    [orgId],
  );
  return rows[0]!;
}
