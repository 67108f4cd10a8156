import type { Queryable } from '../../db/pool.js';
import { ENDPOINT_COLUMNS, type EndpointRow } from '../endpoint-row.js';

/** How long the secret replaced by a rotation still signs deliveries. */
export const PREVIOUS_SECRET_VALID_HOURS = 24;

export async function rotateEndpointSecret(q: Queryable, orgId: string, id: string, secret: string): Promise<EndpointRow | null> {
  const { rows } = await q.query<EndpointRow>(
    `UPDATE webhook_endpoints SET previous_secret = secret, secret = $3,
       previous_secret_expires_at = now() + $4 * interval '1 hour', updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
    [orgId, id, secret, PREVIOUS_SECRET_VALID_HOURS],
  );
  return rows[0] ?? null;
}
