import type { Queryable } from '../../db/pool.js';

/** Whether the provider's reference was recorded in the organization before the record `eventId`. */
export async function referenceRecordedBefore(tx: Queryable, orgId: string, provider: string, reference: string, eventId: string): Promise<boolean> {
  const { rows } = await tx.query('SELECT 1 FROM mobile_money_events WHERE org_id = $1 AND provider = $2 AND reference = $3 AND id < $4 LIMIT 1', [orgId, provider, reference, eventId]);
  return rows.length > 0;
}
