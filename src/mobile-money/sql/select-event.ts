import type { Queryable } from '../../db/pool.js';
import { type MobileMoneyRow, EVENT_COLUMNS } from '../event-row.js';

export async function selectEvent(db: Queryable, orgId: string, id: string): Promise<MobileMoneyRow | undefined> {
  const { rows } = await db.query<MobileMoneyRow>(`SELECT ${EVENT_COLUMNS} FROM mobile_money_events WHERE id = $1 AND org_id = $2`, [id, orgId]);
  return rows[0];
}
