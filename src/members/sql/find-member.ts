import type { Queryable } from '../../db/pool.js';
import type { MemberRow } from '../member-store.js';

export async function findMember(db: Queryable, id: string): Promise<MemberRow | undefined> {
  const { rows } = await db.query<MemberRow>(`SELECT id, email, password_hash AS "passwordHash" FROM members WHERE id = $1`, [id]);
  return rows[0];
}
