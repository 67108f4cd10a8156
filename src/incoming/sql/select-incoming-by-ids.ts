import type { Queryable } from '../../db/pool.js';
import { type IncomingRow, SELECT_INCOMING } from '../incoming-row.js';

export async function selectIncomingByIds(db: Queryable, ids: string[]): Promise<IncomingRow[]> {
  const { rows } = await db.query<IncomingRow>(`${SELECT_INCOMING} WHERE i.id = ANY($1::text[]) ORDER BY i.id`, [ids]);
  return rows;
}
