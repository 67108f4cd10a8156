import type { AppContext } from '../context/app-context.js';
import { memberRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { AuditQuery } from './schemas.js';
import { selectAuditPage } from './sql/select-audit-page.js';

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
        const rows = await selectAuditPage(ctx.db, { orgId: req.principal.orgId, before: req.query.before ?? null, limit, action: action ?? null, by: by ?? null });
        const page = rows.slice(0, limit);
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
