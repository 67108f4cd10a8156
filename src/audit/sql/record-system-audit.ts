import type { Queryable } from '../../db/pool.js';
import { newId } from '../../ids/ids.js';
import type { AuditAction } from '../audit-action.js';

/** An action with no member behind it (the CLI, the first start), for the organization's log. */
export async function recordSystemAudit(db: Queryable, orgId: string, a: AuditAction): Promise<void> {
  await db.query(`INSERT INTO audit_log (id, org_id, action, target, detail) VALUES ($1, $2, $3, $4, $5)`, [newId('auditEntry'), orgId, a.action, a.target ?? null, JSON.stringify(a.detail ?? {})]);
}
