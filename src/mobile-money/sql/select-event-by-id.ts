import type { Queryable } from '../../db/pool.js';
import { type MobileMoneyRow, EVENT_COLUMNS } from '../event-row.js';

export async function selectEventById(db: Queryable, id: string): Promise<MobileMoneyRow | undefined> {
  const { rows } = await db.query<MobileMoneyRow>(`SELECT ${EVENT_COLUMNS} FROM mobile_money_events WHERE id = $1`, [id]);
  return rows[0];
}
