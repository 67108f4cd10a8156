import type { Queryable } from '../../db/pool.js';

/** The event types some enabled endpoint of the organization subscribes to. */
export async function subscribedTypes(tx: Queryable, orgId: string): Promise<Set<string>> {
  const { rows } = await tx.query<{ type: string }>({
    name: 'subscribed-event-types',
    text: 'SELECT DISTINCT unnest(event_types) AS type FROM webhook_endpoints WHERE org_id = $1 AND enabled',
    values: [orgId],
  });
  return new Set(rows.map((r) => r.type));
}
