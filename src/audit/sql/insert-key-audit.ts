import type { Queryable } from '../../db/pool.js';
import { newId } from '../../ids/ids.js';
import type { ApiPrincipal } from '../../auth/principal.js';
import type { AuditAction } from '../audit-action.js';

/** An API key's action: the key named in `detail.apiKeyId`. */
export async function insertKeyAudit(db: Queryable, k: ApiPrincipal, address: string, a: AuditAction): Promise<void> {
  await db.query(`INSERT INTO audit_log (id, org_id, action, target, address, detail) VALUES ($1, $2, $3, $4, $5, $6)`, [
    newId('auditEntry'),
    k.orgId,
    a.action,
    a.target ?? null,
    address || null,
    JSON.stringify({ ...a.detail, apiKeyId: k.keyId }),
  ]);
}
