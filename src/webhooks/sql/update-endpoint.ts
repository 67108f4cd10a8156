import type { Queryable } from '../../db/pool.js';
import { ENDPOINT_COLUMNS, type EndpointRow } from '../endpoint-row.js';

export interface EndpointUpdate {
  url: string | null;
  /** Whether description is to be set (to a text or to null). */
  setDescription: boolean;
  description: string | null;
  eventTypes: string[] | null;
  enabled: boolean | null;
}

/** Re-enabling a disabled endpoint starts its failure count afresh; disabling it records when and why ("manual"). */
export async function updateEndpointRow(q: Queryable, orgId: string, id: string, u: EndpointUpdate): Promise<EndpointRow | undefined> {
  const { rows } = await q.query<EndpointRow>(
    `UPDATE webhook_endpoints SET
         url = COALESCE($3, url),
         description = CASE WHEN $4::boolean THEN $5 ELSE description END,
         event_types = COALESCE($6, event_types),
         enabled = COALESCE($7, enabled),
         disabled_at = CASE WHEN $7 THEN NULL WHEN NOT $7 AND enabled THEN now() ELSE disabled_at END,
         disabled_reason = CASE WHEN $7 THEN NULL WHEN NOT $7 AND enabled THEN 'manual' ELSE disabled_reason END,
         consecutive_failures = CASE WHEN $7 AND NOT enabled THEN 0 ELSE consecutive_failures END,
         failing_since = CASE WHEN $7 AND NOT enabled THEN NULL ELSE failing_since END,
         updated_at = now()
       WHERE org_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
    [orgId, id, u.url, u.setDescription, u.description, u.eventTypes, u.enabled],
  );
  return rows[0];
}
