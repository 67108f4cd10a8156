import type { Queryable } from '../db/pool.js';
import type { ApiPrincipal, MemberPrincipal } from '../auth/principal.js';
import type { AuditAction } from './audit-action.js';
import { insertAuditPerOrganization } from './sql/insert-audit-per-organization.js';
import { insertKeyAudit } from './sql/insert-key-audit.js';
import { insertMemberAudit } from './sql/insert-member-audit.js';
import { selectMemberOrgIds } from './sql/select-member-org-ids.js';

export type { AuditAction } from './audit-action.js';

/**
 * One action in the audit log. Called in the action's own transaction where it has one, so the
 * log never shows an action that did not happen. A member's action names the member; an API
 * key's names the key in `detail.apiKeyId` (the log has no column for it: docs/dashboard-api.md,
 * "The audit log"). Phones write nothing here.
 */
export async function recordAudit(db: Queryable, principal: { kind: string } | MemberPrincipal | ApiPrincipal | null, address: string, a: AuditAction): Promise<void> {
  if (principal?.kind === 'apiKey') {
    const k = principal as ApiPrincipal;
    await insertKeyAudit(db, k, address, a);
    return;
  }
  if (principal?.kind !== 'member') return;
  const m = principal as MemberPrincipal;
  await insertMemberAudit(db, m, address, a);
}

/**
 * An action on an account, written in the log of every organization the account belongs to: a
 * password is the person's across organizations, so each of their owners sees it changed. `by`
 * is the member who acted (the person themselves), or none for the server's operator (the CLI).
 */
export async function recordAuditInEveryOrganization(db: Queryable, memberId: string, by: { memberId: string; email: string } | null, address: string, a: AuditAction): Promise<void> {
  const orgIds = await selectMemberOrgIds(db, memberId);
  if (orgIds.length === 0) return;
  await insertAuditPerOrganization(db, orgIds, by, address, a);
}
