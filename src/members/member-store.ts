import type { Queryable } from '../db/pool.js';
import { newId } from '../ids/ids.js';
import { errors } from '../errors/errors.js';
import type { Role } from '../auth/principal.js';

export interface MemberRow {
  id: string;
  email: string;
  passwordHash: string | null;
}

export interface MembershipView {
  id: string;
  email: string;
  role: Role;
  joinedAt: Date;
  lastSignInAt: Date | null;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,63}$/;

/** Emails are compared trimmed and lower-cased; a 400 naming `field` when it is not one. */
export function normalizeEmail(raw: string, field = 'email'): string {
  const email = raw.trim().toLowerCase();
  if (!EMAIL.test(email)) throw errors.invalid(`${field}: not an email address`);
  return email;
}

export async function findMemberByEmail(db: Queryable, email: string): Promise<MemberRow | undefined> {
  const { rows } = await db.query(`SELECT id, email, password_hash AS "passwordHash" FROM members WHERE email = $1`, [email]);
  return rows[0] as MemberRow | undefined;
}

export async function findMember(db: Queryable, id: string): Promise<MemberRow | undefined> {
  const { rows } = await db.query(`SELECT id, email, password_hash AS "passwordHash" FROM members WHERE id = $1`, [id]);
  return rows[0] as MemberRow | undefined;
}

/** The member with this email, made when there is none (an invitation or the setup link accepted). */
export async function ensureMember(db: Queryable, email: string): Promise<MemberRow> {
  const { rows } = await db.query(
    `INSERT INTO members (id, email) VALUES ($1, $2) ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email
     RETURNING id, email, password_hash AS "passwordHash"`,
    [newId('member'), email],
  );
  return rows[0] as MemberRow;
}

export async function setPasswordHash(db: Queryable, memberId: string, hash: string): Promise<void> {
  await db.query(`UPDATE members SET password_hash = $2, password_changed_at = now() WHERE id = $1`, [memberId, hash]);
}

/** Sets the first password of an account made by a link; false when it already has one. */
export async function setPasswordHashIfUnset(db: Queryable, memberId: string, hash: string): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE members SET password_hash = $2, password_changed_at = now() WHERE id = $1 AND password_hash IS NULL`, [memberId, hash]);
  return (rowCount ?? 0) > 0;
}

export async function markSignedIn(db: Queryable, memberId: string): Promise<void> {
  await db.query(`UPDATE members SET last_sign_in_at = now() WHERE id = $1`, [memberId]);
}

/** Adds the membership, or changes its role when it exists. */
export async function upsertMembership(db: Queryable, orgId: string, memberId: string, role: Role): Promise<void> {
  await db.query(
    `INSERT INTO memberships (org_id, member_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (org_id, member_id) DO UPDATE SET role = EXCLUDED.role`,
    [orgId, memberId, role],
  );
}

/** The organizations of a member with their role there, by name. */
export async function organizationsOf(db: Queryable, memberId: string): Promise<{ id: string; name: string; role: Role }[]> {
  const { rows } = await db.query(`SELECT o.id, o.name, ms.role FROM memberships ms JOIN organizations o ON o.id = ms.org_id WHERE ms.member_id = $1 ORDER BY o.name`, [memberId]);
  return rows as { id: string; name: string; role: Role }[];
}

/** Whether the account is also a member of an organization other than `orgId`. */
export async function belongsElsewhere(db: Queryable, memberId: string, orgId: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM memberships WHERE member_id = $1 AND org_id <> $2 LIMIT 1`, [memberId, orgId]);
  return rows.length > 0;
}

export async function membersOf(db: Queryable, orgId: string): Promise<MembershipView[]> {
  const { rows } = await db.query(
    `SELECT m.id, m.email, ms.role, ms.created_at AS "joinedAt", m.last_sign_in_at AS "lastSignInAt"
       FROM memberships ms JOIN members m ON m.id = ms.member_id WHERE ms.org_id = $1 ORDER BY m.email`,
    [orgId],
  );
  return rows as MembershipView[];
}

export async function membershipOf(db: Queryable, orgId: string, memberId: string): Promise<MembershipView | undefined> {
  return (await membersOf(db, orgId)).find((m) => m.id === memberId);
}

/**
 * Changes a role or removes a membership, refusing (409) to leave the organization without an
 * owner. The organization's memberships are locked first, so two owners demoting each other at
 * once cannot both succeed.
 */
export async function changeMembership(db: Queryable, orgId: string, memberId: string, role: Role | null): Promise<boolean> {
  const { rows } = await db.query(`SELECT member_id AS "memberId", role FROM memberships WHERE org_id = $1 FOR UPDATE`, [orgId]);
  const all = rows as { memberId: string; role: Role }[];
  const target = all.find((r) => r.memberId === memberId);
  if (!target) return false;
  const ownersAfter = all.filter((r) => (r.memberId === memberId ? role === 'owner' : r.role === 'owner')).length;
  if (ownersAfter === 0) throw errors.conflict('an organization keeps at least one owner: make another member owner first');
  if (role === null) await db.query(`DELETE FROM memberships WHERE org_id = $1 AND member_id = $2`, [orgId, memberId]);
  else await db.query(`UPDATE memberships SET role = $3 WHERE org_id = $1 AND member_id = $2`, [orgId, memberId, role]);
  return true;
}

export async function ownerCount(db: Queryable, orgId: string): Promise<number> {
  const { rows } = await db.query(`SELECT count(*)::int AS n FROM memberships WHERE org_id = $1 AND role = 'owner'`, [orgId]);
  return (rows[0] as { n: number }).n;
}
