import type { Queryable } from '../../src/db/pool.js';
import { newId } from '../../src/ids/ids.js';

/**
 * A received SMS stored as a phone's forward leaves it (arranging state for the readers of the
 * list, the search and the threads): no parse job, no event. Returns its id.
 */
export async function storeReceivedSms(db: Queryable, sms: { orgId: string; deviceId: string; from: string; body: string; minutesAgo?: number }): Promise<string> {
  const id = newId('incoming');
  await db.query(
    `INSERT INTO incoming_messages (id, org_id, device_id, client_id, from_number, body, received_at, retention_expires_at)
     VALUES ($1, $2, $3, $1, $4, $5, now() - $6 * interval '1 minute', now() + interval '30 days')`,
    [id, sms.orgId, sms.deviceId, sms.from, sms.body, sms.minutesAgo ?? 0],
  );
  return id;
}
