import type { HotClient } from '../../db/pool.js';

/** Row locks on these endpoints, in id order, FOR NO KEY UPDATE (see recordAttempts). */
export async function lockEndpointRows(tx: HotClient, endpointIds: string[]): Promise<void> {
  await tx.query('SELECT 1 FROM webhook_endpoints WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE', [endpointIds]);
}
