import type { Queryable } from '../../db/pool.js';
import { type IncomingRow, SELECT_INCOMING } from '../incoming-row.js';

export async function selectIncoming(db: Queryable, orgId: string, id: string): Promise<IncomingRow | undefined> {
  const { rows } = await db.query<IncomingRow>(`${SELECT_INCOMING} WHERE i.id = $1 AND i.org_id = $2`, [id, orgId]);
  return rows[0];
}
