import type { Queryable } from '../../db/pool.js';
import { EVENT_COLUMNS, READING_COLUMNS, type MobileMoneyRow } from '../event-row.js';

/** The record of one received SMS, unless it has one (UNIQUE incoming_message_id): undefined then. */
export async function insertReadingRow(tx: Queryable, id: string, sms: { id: string; orgId: string }, values: unknown[]): Promise<MobileMoneyRow | undefined> {
  const { rows } = await tx.query<MobileMoneyRow>(
    `INSERT INTO mobile_money_events (id, org_id, incoming_message_id, ${READING_COLUMNS})
     VALUES ($1, $2, $3, ${Array.from({ length: 18 }, (_, i) => `$${i + 4}`).join(', ')})
     ON CONFLICT (incoming_message_id) DO NOTHING RETURNING ${EVENT_COLUMNS}`,
    [id, sms.orgId, sms.id, ...values],
  );
  return rows[0];
}
