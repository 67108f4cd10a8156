import type { Queryable } from '../../db/pool.js';
import { newId } from '../../ids/ids.js';
import type { AuditAction } from '../audit-action.js';

/** One entry of the action in each organization's log. */
export async function insertAuditPerOrganization(db: Queryable, orgIds: string[], by: { memberId: string; email: string } | null, address: string, a: AuditAction): Promise<void> {
  await db.query(
    `INSERT INTO audit_log (id, org_id, member_id, member_email, action, target, address, detail)
     SELECT e.id, e.org_id, $3, $4, $5, $6, $7, $8 FROM unnest($1::text[], $2::text[]) AS e(id, org_id)`,
    [orgIds.map(() => newId('auditEntry')), orgIds, by?.memberId ?? null, by?.email ?? null, a.action, a.target ?? null, address || null, JSON.stringify(a.detail ?? {})],
  );
}
