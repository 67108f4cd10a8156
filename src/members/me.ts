import type { Queryable } from '../db/pool.js';
import { scopesOfRole, type Role } from '../auth/principal.js';
import { organizationsOf } from './sql/select-organizations-of.js';
import { errors } from '../errors/errors.js';

export interface Me {
  member: { id: string; email: string };
  organization: { id: string; name: string };
  role: Role;
  scopes: readonly string[];
  organizations: { id: string; name: string; role: Role }[];
}

/** What the dashboard shows of the signed-in member, acting in `orgId`. */
export async function describeMe(db: Queryable, m: { memberId: string; email: string; orgId: string }): Promise<Me> {
  const organizations = await organizationsOf(db, m.memberId);
  const current = organizations.find((o) => o.id === m.orgId);
  if (!current) throw errors.signedOut('your session has ended: sign in again');
  return {
    member: { id: m.memberId, email: m.email },
    organization: { id: current.id, name: current.name },
    role: current.role,
    scopes: scopesOfRole(current.role),
    organizations,
  };
}
