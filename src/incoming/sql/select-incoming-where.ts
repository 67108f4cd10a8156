import type { Queryable } from '../../db/pool.js';
import { type IncomingRow, SELECT_INCOMING } from '../incoming-row.js';

/** Received SMS by a condition and order of the caller's (the search, src/search): `i` is the SMS. */
export async function selectIncomingWhere(db: Queryable, where: string, params: unknown[]): Promise<IncomingRow[]> {
  const { rows } = await db.query<IncomingRow>(`${SELECT_INCOMING} WHERE ${where}`, params);
  return rows;
}
