import type { AppContext } from '../context/app-context.js';
import { memberRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { AuditQuery } from '../members/schemas.js';

/** GET /dashboard/v1/audit: the organization's member actions, newest first, keyset pages by id. */
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
        const { rows } = await ctx.db.query(
          `SELECT id, at, member_id AS "memberId", member_email AS "memberEmail", action, target, address, detail
             FROM audit_log WHERE org_id = $1 AND ($2::text IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
          [req.principal.orgId, req.query.before ?? null, limit + 1],
        );
        const page = rows.slice(0, limit) as {
          id: string;
          at: Date;
          memberId: string | null;
          memberEmail: string | null;
          action: string;
          target: string | null;
          address: string | null;
          detail: unknown;
        }[];
        return {
          status: 200,
          body: {
            entries: page.map((r) => ({
              id: r.id,
              at: r.at,
              member: r.memberId ? { id: r.memberId, email: r.memberEmail } : null,
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
