import type { Queryable } from '../db/pool.js';
import { errors } from '../errors/errors.js';
import type { Role } from '../auth/principal.js';
import { deleteMembership } from './sql/delete-membership.js';
import { lockMemberships } from './sql/lock-memberships.js';
import { updateMembershipRole } from './sql/update-membership-role.js';
import { membersOf, type MembershipView } from './sql/select-members-of.js';

export interface MemberRow {
  id: string;
  email: string;
  passwordHash: string | null;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,63}$/;

/** Emails are compared trimmed and lower-cased; a 400 naming `field` when it is not one. */
export function normalizeEmail(raw: string, field = 'email'): string {
  const email = raw.trim().toLowerCase();
  if (!EMAIL.test(email)) throw errors.invalid(`${field}: not an email address`);
  return email;
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
  const all = await lockMemberships(db, orgId);
  const target = all.find((r) => r.memberId === memberId);
  if (!target) return false;
  const ownersAfter = all.filter((r) => (r.memberId === memberId ? role === 'owner' : r.role === 'owner')).length;
  if (ownersAfter === 0) throw errors.conflict('an organization keeps at least one owner: make another member owner first');
  if (role === null) await deleteMembership(db, orgId, memberId);
  else await updateMembershipRole(db, orgId, memberId, role);
  return true;
}
