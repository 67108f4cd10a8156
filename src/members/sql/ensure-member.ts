import type { Queryable } from '../../db/pool.js';
import { newId } from '../../ids/ids.js';
import type { MemberRow } from '../member-store.js';

/** The member with this email, made when there is none (an invitation or the setup link accepted). */
export async function ensureMember(db: Queryable, email: string): Promise<MemberRow> {
  const { rows } = await db.query<MemberRow>(
    `INSERT INTO members (id, email) VALUES ($1, $2) ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email
     RETURNING id, email, password_hash AS "passwordHash"`,
    [newId('member'), email],
  );
  return rows[0]!;
}
