import type { AppContext } from '../context/app-context.js';
import { memberRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { AuditQuery } from './schemas.js';

/** GET /dashboard/v1/audit: the organization's member and API-key actions, newest first, keyset pages by id; filters by action and by who. */
export function auditRoutes(ctx: AppContext): AnyRoute[] {
  return [
    memberRoute({
      method: 'get',
      path: '/dashboard/v1/audit',
      auth: { role: 'owner' },
      query: AuditQuery,
      summary: 'Who did what, when, from where',
      handler: async (req) => {
        const limit = req.query.limit ?? 50;
        if (req.query.before !== undefined && !/^aud_[0-9A-Z]{24}$/.test(req.query.before)) throw errors.invalid('before: not a cursor of this list');
        const { action, by } = req.query;
        const { rows } = await ctx.db.query(
          `SELECT a.id, a.at, a.member_id AS "memberId", a.member_email AS "memberEmail", a.action, a.target, a.address, a.detail,
                  k.id AS "keyId", k.name AS "keyName"
             FROM audit_log a LEFT JOIN api_keys k ON k.id = a.detail->>'apiKeyId' AND k.org_id = a.org_id
            WHERE a.org_id = $1 AND ($2::text IS NULL OR a.id < $2)
              AND ($4::text IS NULL OR CASE WHEN right($4, 1) = '.' THEN starts_with(a.action, $4) ELSE a.action = $4 END)
              AND ($5::text IS NULL OR CASE $5 WHEN 'api_key' THEN a.detail ? 'apiKeyId' WHEN 'cli' THEN a.member_id IS NULL AND NOT a.detail ? 'apiKeyId' ELSE a.member_id = $5 END)
            ORDER BY a.id DESC LIMIT $3`,
          [req.principal.orgId, req.query.before ?? null, limit + 1, action ?? null, by ?? null],
        );
        const page = rows.slice(0, limit) as {
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
        }[];
        return {
          status: 200,
          body: {
            entries: page.map((r) => ({
              id: r.id,
              at: r.at,
              member: r.memberId ? { id: r.memberId, email: r.memberEmail } : null,
              apiKey: typeof r.detail.apiKeyId === 'string' ? { id: r.detail.apiKeyId, name: r.keyName } : null,
              action: r.action,
              target: r.target,
              address: r.address,
              detail: r.detail,
            })),
            nextCursor: rows.length > limit ? page[page.length - 1]!.id : null,
          },
        };
      },
    }),
  ];
}
