import type { AppContext } from '../app/context.js';
import { apiRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { listPage } from '../http/pagination.js';
import { ListMobileMoneyQuery, MobileMoneyEventSchema, MobileMoneyPageSchema } from './schemas.js';
import { selectEvent, selectEventPage, toMobileMoneyEvent } from './event-row.js';

export function mobileMoneyRoutes(ctx: AppContext): AnyRoute[] {
  return [
    apiRoute({
      method: 'get', path: '/v1/mobile-money', auth: { scope: 'mobile-money:read' }, query: ListMobileMoneyQuery,
      summary: 'List mobile-money readings of received SMS (always unverified), newest first', responses: { 200: MobileMoneyPageSchema },
      handler: (req) =>
        listPage(req.query, 'events', (p) => selectEventPage(ctx.db, { orgId: req.principal.orgId, classification: req.query.classification, ...p }), toMobileMoneyEvent),
    }),
    apiRoute({
      method: 'get', path: '/v1/mobile-money/:eventId', auth: { scope: 'mobile-money:read' },
      summary: 'A mobile-money reading of a received SMS (always unverified)', responses: { 200: MobileMoneyEventSchema },
      handler: async (req) => {
        const row = await selectEvent(ctx.db, req.principal.orgId, req.params.eventId!);
        if (!row) throw errors.notFound('mobile-money event');
        return { status: 200, body: toMobileMoneyEvent(row) };
      },
    }),
  ];
}
