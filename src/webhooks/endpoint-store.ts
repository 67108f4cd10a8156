import type { Db } from '../db/pool.js';
import { inTransaction } from '../db/pool.js';
import { newId } from '../ids/ids.js';
import { errors } from '../errors/errors.js';
import type { EndpointRow } from './endpoint-row.js';
import { MAX_ENDPOINTS_PER_ORG } from './schemas.js';
import { countEndpoints } from './sql/count-endpoints.js';
import { insertEndpointRow } from './sql/insert-endpoint.js';
import { lockOrganization } from './sql/lock-organization.js';
import { updateEndpointRow } from './sql/update-endpoint.js';
import { stopPendingDeliveries } from './sql/stop-pending-deliveries.js';

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
    await lockOrganization(tx, orgId);
    if ((await countEndpoints(tx, orgId)) >= MAX_ENDPOINTS_PER_ORG) {
      throw errors.conflict(`an organization can have at most ${MAX_ENDPOINTS_PER_ORG} webhook endpoints; delete one first`);
    }
    return insertEndpointRow(tx, { id: newId('webhookEndpoint'), orgId, url: e.url, description: e.description, eventTypes: distinct(e.eventTypes), secret: e.secret });
  });
}

/**
 * Re-enabling a disabled endpoint starts its failure count afresh; disabling it (by hand: reason
 * "manual") stops its pending deliveries in the same transaction.
 */
export async function updateEndpoint(db: Db, orgId: string, id: string, c: EndpointChanges): Promise<EndpointRow | null> {
  return inTransaction(db, async (tx) => {
    const row = await updateEndpointRow(tx, orgId, id, {
      url: c.url ?? null,
      setDescription: c.description !== undefined,
      description: c.description ?? null,
      eventTypes: c.eventTypes ? distinct(c.eventTypes) : null,
      enabled: c.enabled ?? null,
    });
    if (row && !row.enabled) await stopPendingDeliveries(tx, [row.id], 'endpoint disabled');
    return row ?? null;
  });
}
