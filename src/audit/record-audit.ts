import type { Queryable } from '../db/pool.js';
import { newId } from '../ids/ids.js';
import type { ApiPrincipal, MemberPrincipal } from '../auth/principal.js';

export interface AuditAction {
  /** A dotted verb: `key.created`, `message.cancelled`, `member.removed`. */
  action: string;
  /** The id of what was acted on, when there is one. */
  target?: string | null;
  /** What an owner reading the log needs to understand the action; never a secret. */
  detail?: Record<string, unknown>;
}

/**
 * One action in the audit log. Called in the action's own transaction where it has one, so the
 * log never shows an action that did not happen. A member's action names the member; an API
 * key's names the key in `detail.apiKeyId` (the log has no column for it: docs/dashboard-api.md,
 * "The audit log"). Phones write nothing here.
 */
export async function recordAudit(db: Queryable, principal: { kind: string } | MemberPrincipal | ApiPrincipal | null, address: string, a: AuditAction): Promise<void> {
  if (principal?.kind === 'apiKey') {
    const k = principal as ApiPrincipal;
    await db.query(`INSERT INTO audit_log (id, org_id, action, target, address, detail) VALUES ($1, $2, $3, $4, $5, $6)`, [
      newId('auditEntry'),
      k.orgId,
      a.action,
      a.target ?? null,
      address || null,
      JSON.stringify({ ...a.detail, apiKeyId: k.keyId }),
    ]);
    return;
  }
  if (principal?.kind !== 'member') return;
  const m = principal as MemberPrincipal;
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

/** An action with no member behind it (the CLI, the first start), for the organization's log. */
export async function recordSystemAudit(db: Queryable, orgId: string, a: AuditAction): Promise<void> {
  await db.query(`INSERT INTO audit_log (id, org_id, action, target, detail) VALUES ($1, $2, $3, $4, $5)`, [newId('auditEntry'), orgId, a.action, a.target ?? null, JSON.stringify(a.detail ?? {})]);
}

/**
 * An action on an account, written in the log of every organization the account belongs to: a
 * password is the person's across organizations, so each of their owners sees it changed. `by`
 * is the member who acted (the person themselves), or none for the server's operator (the CLI).
 */
export async function recordAuditInEveryOrganization(db: Queryable, memberId: string, by: { memberId: string; email: string } | null, address: string, a: AuditAction): Promise<void> {
  const { rows } = await db.query(`SELECT org_id AS "orgId" FROM memberships WHERE member_id = $1`, [memberId]);
  const orgIds = (rows as { orgId: string }[]).map((r) => r.orgId);
  if (orgIds.length === 0) return;
  await db.query(
    `INSERT INTO audit_log (id, org_id, member_id, member_email, action, target, address, detail)
     SELECT e.id, e.org_id, $3, $4, $5, $6, $7, $8 FROM unnest($1::text[], $2::text[]) AS e(id, org_id)`,
    [orgIds.map(() => newId('auditEntry')), orgIds, by?.memberId ?? null, by?.email ?? null, a.action, a.target ?? null, address || null, JSON.stringify(a.detail ?? {})],
  );
}
