import type { Queryable } from '../db/pool.js';
import type { InboundDevice } from './inbound-device.js';
import { insertIncomingMessages, type NewIncoming } from './sql/insert-incoming-messages.js';
import { selectIncomingByClientIds } from './sql/select-incoming-by-client-ids.js';

/**
 * Inserts the messages not stored yet and answers the id of each clientId, new or old: a
 * phone's retry of an SMS already stored writes nothing. `created` lists only the new ids.
 */
export async function storeMessages(tx: Queryable, device: InboundDevice, items: NewIncoming[]): Promise<{ idByClientId: Map<string, string>; created: string[] }> {
  const unique = [...new Map(items.map((m) => [m.clientId, m])).values()];
  const idByClientId = new Map<string, string>();
  if (unique.length === 0) return { idByClientId, created: [] };
  const rows = await insertIncomingMessages(tx, device, unique);
  for (const r of rows) idByClientId.set(r.client_id, r.id);
  const created = rows.map((r) => r.id);
  const missing = unique.filter((m) => !idByClientId.has(m.clientId)).map((m) => m.clientId);
  if (missing.length > 0) {
    for (const r of await selectIncomingByClientIds(tx, device.id, missing)) idByClientId.set(r.client_id, r.id);
  }
  return { idByClientId, created };
}
