import type { Queryable } from '../../db/pool.js';
import { newId } from '../../ids/ids.js';
import type { MemberPrincipal } from '../../auth/principal.js';
import type { AuditAction } from '../audit-action.js';

/** A member's action, naming the member. */
export async function insertMemberAudit(db: Queryable, m: MemberPrincipal, address: string, a: AuditAction): Promise<void> {
  await db.query(`INSERT INTO audit_log (id, org_id, member_id, member_email, action, target, address, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
    newId('auditEntry'),
    m.orgId,
    m.memberId,
    m.email,
    a.action,
    a.target ?? null,
    address || null,
    JSON.stringify(a.detail ?? {}),
  ]);
}
