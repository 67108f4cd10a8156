import type { Queryable } from '../../db/pool.js';

export interface AuditRow {
  id: string;
  at: Date;
  memberId: string | null;
  memberEmail: string | null;
  action: string;
  target: string | null;
  address: string | null;
  detail: Record<string, unknown>;
  keyId: string | null;
  keyName: string | null;
}

/** One page of the organization's log, newest first (limit + 1 rows: whether a next page exists); filters by action (or prefix ending in '.') and by who. */
export async function selectAuditPage(db: Queryable, q: { orgId: string; before: string | null; limit: number; action: string | null; by: string | null }): Promise<AuditRow[]> {
  const { rows } = await db.query<AuditRow>(
    `SELECT a.id, a.at, a.member_id AS "memberId", a.member_email AS "memberEmail", a.action, a.target, a.address, a.detail,
                  k.id AS "keyId", k.name AS "keyName"
             FROM audit_log a LEFT JOIN api_keys k ON k.id = a.detail->>'apiKeyId' AND k.org_id = a.org_id
            WHERE a.org_id = $1 AND ($2::text IS NULL OR a.id < $2)
              AND ($4::text IS NULL OR CASE WHEN right($4, 1) = '.' THEN starts_with(a.action, $4) ELSE a.action = $4 END)
              AND ($5::text IS NULL OR CASE $5 WHEN 'api_key' THEN a.detail ? 'apiKeyId' WHEN 'cli' THEN a.member_id IS NULL AND NOT a.detail ? 'apiKeyId' ELSE a.member_id = $5 END)
            ORDER BY a.id DESC LIMIT $3`,
    [q.orgId, q.before, q.limit + 1, q.action, q.by],
  );
  return rows;
}
