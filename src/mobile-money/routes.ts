import type { AppContext } from '../context/app-context.js';
import { Type } from '@sinclair/typebox';
import { apiRoute, memberRoute, type AnyRoute } from '../http/router.js';
import { Text } from '../schemas/schema-kit.js';
import { recordAudit } from '../audit/record-audit.js';
import { reviewEvent } from './sql/review-event.js';
import { errors } from '../errors/errors.js';
import { listPage } from '../http/pagination.js';
import { ListMobileMoneyQuery, MobileMoneyEventSchema, MobileMoneyPageSchema } from './schemas.js';
import { toMobileMoneyEvent } from './event-row.js';
import { selectEvent } from './sql/select-event.js';
import { selectEventPage } from './sql/select-event-page.js';

const ReviewBody = Type.Object({ note: Text({ minLength: 1, maxLength: 2000 }) }, { additionalProperties: false });

export function mobileMoneyRoutes(ctx: AppContext): AnyRoute[] {
  return [
    apiRoute({
      method: 'get',
      path: '/v1/mobile-money',
      auth: { scope: 'mobile-money:read' },
      query: ListMobileMoneyQuery,
      summary: 'List mobile-money readings of received SMS (always unverified), newest first',
      responses: { 200: MobileMoneyPageSchema },
      handler: (req) => listPage(req.query, 'events', (p) => selectEventPage(ctx.db, { orgId: req.principal.orgId, classification: req.query.classification, ...p }), toMobileMoneyEvent),
    }),
    apiRoute({
      method: 'get',
      path: '/v1/mobile-money/:eventId',
      auth: { scope: 'mobile-money:read' },
      summary: 'A mobile-money reading of a received SMS (always unverified)',
      responses: { 200: MobileMoneyEventSchema },
      handler: async (req) => {
        const row = await selectEvent(ctx.db, req.principal.orgId, req.params.eventId!);
        if (!row) throw errors.notFound('mobile-money event');
        return { status: 200, body: toMobileMoneyEvent(row) };
      },
    }),
    memberRoute({
      method: 'post',
      path: '/dashboard/v1/mobile-money/:eventId/review',
      auth: { role: 'admin' },
      body: ReviewBody,
      clientAddress: true,
      summary: 'A member looked at the reading (it stays unverified): review.status reviewed, with their note',
      handler: async (req) => {
        const event = await reviewEvent(ctx.db, req.params.eventId!, req.body.note, req.principal.orgId);
        if (!event) throw errors.notFound('mobile-money event');
        await recordAudit(ctx.db, req.principal, req.clientAddress, { action: 'mobile_money.reviewed', target: event.id, detail: { note: req.body.note } });
        return { status: 200, body: event };
      },
    }),
  ];
}
