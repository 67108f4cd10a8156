import type { Queryable } from '../../db/pool.js';
import type { MemberRow } from '../member-store.js';

export async function findMemberByEmail(db: Queryable, email: string): Promise<MemberRow | undefined> {
  const { rows } = await db.query<MemberRow>(`SELECT id, email, password_hash AS "passwordHash" FROM members WHERE email = $1`, [email]);
  return rows[0];
}
