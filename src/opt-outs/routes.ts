import type { AppContext } from '../context/app-context.js';
import { apiRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { listPage } from '../http/pagination.js';
import { findOrganization } from '../orgs/sql/find-organization.js';
import { normalizeRecipient } from '../messages/recipients.js';
import { idPrefixes } from '../ids/ids.js';
import { OptOutSchema, toOptOut } from './opt-out-row.js';
import { AddOptOutBody, ListOptOutsQuery, OptOutPageSchema } from './schemas.js';
import { selectOptOutPage } from './sql/select-opt-out-page.js';
import { insertOptOut } from './sql/insert-opt-out.js';
import { deleteOptOut } from './sql/delete-opt-out.js';

/** A number as a send reads it (E.164, national numbers in the default country), or a 400 naming the field. */
async function numberOf(ctx: AppContext, orgId: string, raw: string, field: string): Promise<string> {
  const org = await findOrganization(ctx.db, orgId);
  if (!org) throw errors.unauthorized();
  const number = normalizeRecipient(raw, org.defaultCountry);
  if (number === null) throw errors.invalid(`${field}: ${JSON.stringify(raw)} is not a phone number`);
  return number;
}

/**
 * DELETE's path names an entry by its id or by its number's digits (E.164 without the +, which a
 * path id cannot hold: DELETE /v1/opt-outs/261341234567).
 */
function entryOf(segment: string): { id: string } | { number: string } | null {
  if (segment.startsWith(`${idPrefixes.optOut}_`)) return { id: segment };
  return /^[1-9]\d{5,18}$/.test(segment) ? { number: `+${segment}` } : null;
}

const sourceOf = (principal: { kind: string }) => (principal.kind === 'member' ? ('member' as const) : ('api' as const));

/** The organization's opt-out list (docs/decisions.md, "Opt-outs"). */
export function optOutRoutes(ctx: AppContext): AnyRoute[] {
  return [
    apiRoute({
      method: 'get',
      path: '/v1/opt-outs',
      auth: { scope: 'opt-outs:read' },
      query: ListOptOutsQuery,
      summary: 'List the numbers the organization may not send to, newest first',
      responses: { 200: OptOutPageSchema },
      handler: async (req) => {
        const { orgId } = req.principal;
        const number = req.query.number === undefined ? undefined : await numberOf(ctx, orgId, req.query.number, 'query.number');
        return listPage(req.query, 'optOuts', (p) => selectOptOutPage(ctx.db, { orgId, number, ...p }), toOptOut);
      },
    }),
    apiRoute({
      method: 'post',
      path: '/v1/opt-outs',
      auth: { scope: 'opt-outs:write' },
      body: AddOptOutBody,
      // The number as stored (E.164), not as typed: the log is searched by it.
      audit: { action: 'opt_out.added', target: (req) => req.reply.number, detail: (req) => (req.reply.number === req.body.number ? {} : { typed: req.body.number }) },
      summary: 'Add a number to the opt-out list (201), or answer its entry if it is there already (200)',
      responses: { 200: OptOutSchema, 201: OptOutSchema },
      handler: async (req) => {
        const number = await numberOf(ctx, req.principal.orgId, req.body.number, 'number');
        const { row, created } = await insertOptOut(ctx.db, req.principal.orgId, number, { source: sourceOf(req.principal), reason: req.body.reason ?? null });
        return { status: created ? 201 : 200, body: toOptOut(row) };
      },
    }),
    apiRoute({
      method: 'delete',
      path: '/v1/opt-outs/:entry',
      auth: { scope: 'opt-outs:write' },
      audit: { action: 'opt_out.removed', target: (req) => req.params.entry! },
      summary: "Remove a number from the opt-out list, by the entry's id or the number's digits (E.164 without the +)",
      responses: { 204: null },
      handler: async (req) => {
        const entry = entryOf(req.params.entry!);
        const removed = entry && (await deleteOptOut(ctx.db, req.principal.orgId, entry, { source: sourceOf(req.principal) }));
        if (!removed) throw errors.notFound('opt-out');
        return { status: 204 };
      },
    }),
  ];
}
