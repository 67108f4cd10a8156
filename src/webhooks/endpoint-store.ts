import type { Db, Queryable } from '../db/pool.js';
import { inTransaction } from '../db/pool.js';
import { newId } from '../ids/ids.js';
import { errors } from '../errors/errors.js';
import { ENDPOINT_COLUMNS, type EndpointRow } from './endpoint-row.js';
import { MAX_ENDPOINTS_PER_ORG } from './schemas.js';
import { stopPendingDeliveries } from './stop-deliveries.js';

/** How long the secret replaced by a rotation still signs deliveries. */
export const PREVIOUS_SECRET_VALID_HOURS = 24;

export interface NewEndpoint {
  url: string;
  description: string | null;
  eventTypes: string[];
  secret: string;
}

export interface EndpointChanges {
  url?: string;
  description?: string | null;
  eventTypes?: string[];
  enabled?: boolean;
}

const distinct = (list: string[]) => [...new Set(list)];

export async function insertEndpoint(db: Db, orgId: string, e: NewEndpoint): Promise<EndpointRow> {
  return inTransaction(db, async (tx) => {
    // Locking the organization row serializes concurrent creations, so the limit holds.
    await tx.query('SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [orgId]);
    const {
      rows: [count],
    } = await tx.query('SELECT count(*)::int AS n FROM webhook_endpoints WHERE org_id = $1', [orgId]);
    if ((count as { n: number }).n >= MAX_ENDPOINTS_PER_ORG) {
      throw errors.conflict(`an organization can have at most ${MAX_ENDPOINTS_PER_ORG} webhook endpoints; delete one first`);
    }
    const { rows } = await tx.query(
      `INSERT INTO webhook_endpoints (id, org_id, url, description, event_types, secret)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${ENDPOINT_COLUMNS}`,
      [newId('webhookEndpoint'), orgId, e.url, e.description, distinct(e.eventTypes), e.secret],
    );
    return rows[0] as EndpointRow;
  });
}

export async function selectEndpoint(q: Queryable, orgId: string, id: string): Promise<EndpointRow | null> {
  const { rows } = await q.query(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE org_id = $1 AND id = $2`, [orgId, id]);
  return (rows[0] as EndpointRow | undefined) ?? null;
}

export async function selectEndpoints(q: Queryable, orgId: string): Promise<EndpointRow[]> {
  const { rows } = await q.query(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE org_id = $1 ORDER BY id`, [orgId]);
  return rows as EndpointRow[];
}

/**
 * Re-enabling a disabled endpoint starts its failure count afresh; disabling it (by hand: reason
 * "manual") stops its pending deliveries in the same transaction.
 */
export async function updateEndpoint(db: Db, orgId: string, id: string, c: EndpointChanges): Promise<EndpointRow | null> {
  return inTransaction(db, async (tx) => {
    const { rows } = await tx.query(
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
      [orgId, id, c.url ?? null, c.description !== undefined, c.description ?? null, c.eventTypes ? distinct(c.eventTypes) : null, c.enabled ?? null],
    );
    const row = rows[0] as EndpointRow | undefined;
    if (row && !row.enabled) await stopPendingDeliveries(tx, [row.id], 'endpoint disabled');
    return row ?? null;
  });
}

/** Its deliveries go with it (ON DELETE CASCADE); their queued jobs then find nothing to do. */
export async function deleteEndpoint(q: Queryable, orgId: string, id: string): Promise<boolean> {
  const { rowCount } = await q.query('DELETE FROM webhook_endpoints WHERE org_id = $1 AND id = $2', [orgId, id]);
  return (rowCount ?? 0) > 0;
}

export async function rotateEndpointSecret(q: Queryable, orgId: string, id: string, secret: string): Promise<EndpointRow | null> {
  const { rows } = await q.query(
    `UPDATE webhook_endpoints SET previous_secret = secret, secret = $3,
       previous_secret_expires_at = now() + $4 * interval '1 hour', updated_at = now()
     WHERE org_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS}`,
    [orgId, id, secret, PREVIOUS_SECRET_VALID_HOURS],
  );
  return (rows[0] as EndpointRow | undefined) ?? null;
}
