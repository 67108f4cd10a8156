import { Type } from '@sinclair/typebox';
import type { AppContext } from '../context/app-context.js';
import { memberRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { Text } from '../schemas/schema-kit.js';
import { findOrganization } from '../orgs/sql/find-organization.js';
import { normalizeRecipient } from '../messages/recipients.js';
import { selectMessageStatuses } from '../messages/sql/select-message-statuses.js';

const CheckRecipientsBody = Type.Object({ to: Type.Array(Text({ maxLength: 64 }), { minItems: 1, maxItems: 10_000 }) }, { additionalProperties: false });
const StatusesQuery = Type.Object({ ids: Text({ minLength: 1, maxLength: 500 * 65 }) }, { additionalProperties: false });

/** The Send page's helpers: its preview of recipients, and the live progress of what it sent. */
export function messageDashboardRoutes(ctx: AppContext): AnyRoute[] {
  return [
    memberRoute({
      method: 'post',
      path: '/dashboard/v1/recipients/check',
      auth: { role: 'viewer' },
      body: CheckRecipientsBody,
      summary: 'Each line as POST /v1/messages would read it: the number, or why it is refused',
      handler: async (req) => {
        const org = await findOrganization(ctx.db, req.principal.orgId);
        if (!org) throw errors.notFound('organization');
        const recipients = req.body.to.map((input) => {
          const number = normalizeRecipient(input, org.defaultCountry);
          return { input, number, error: number ? null : `not a phone number (read with the default country ${org.defaultCountry})` };
        });
        return { status: 200, body: { defaultCountry: org.defaultCountry, recipients } };
      },
    }),
    memberRoute({
      method: 'get',
      path: '/dashboard/v1/messages/statuses',
      auth: { role: 'viewer' },
      query: StatusesQuery,
      summary: 'The current status of up to 500 messages by id (primary-key reads)',
      handler: async (req) => {
        const ids = req.query.ids.split(',').filter(Boolean);
        if (ids.length > 500) throw errors.invalid('ids: at most 500 ids');
        if (ids.some((id) => !/^[A-Za-z0-9_-]{1,64}$/.test(id))) throw errors.invalid('ids: a comma list of message ids');
        const rows = await selectMessageStatuses(ctx.db, ids, req.principal.orgId);
        return { status: 200, body: { messages: rows } };
      },
    }),
  ];
}
