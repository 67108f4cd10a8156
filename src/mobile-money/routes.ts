import type { AppContext } from '../app/context.js';
import { apiRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { decodeCursor, page, DEFAULT_PAGE_SIZE } from '../http/pagination.js';
import { ListMobileMoneyQuery, MobileMoneyEventSchema, MobileMoneyPageSchema } from './schemas.js';
import { selectEvent, selectEventPage, toMobileMoneyEvent } from './event-row.js';

export function mobileMoneyRoutes(ctx: AppContext): AnyRoute[] {
  return [
    apiRoute({
      method: 'get', path: '/v1/mobile-money', auth: { scope: 'mobile-money:read' }, query: ListMobileMoneyQuery,
      summary: 'List mobile-money readings of received SMS (always unverified), newest first', responses: { 200: MobileMoneyPageSchema },
      handler: async (req) => {
        const limit = req.query.limit ?? DEFAULT_PAGE_SIZE;
        const rows = await selectEventPage(ctx.db, { orgId: req.principal.orgId, classification: req.query.classification, before: decodeCursor(req.query.before), limit });
        const { items, nextCursor } = page(rows, limit);
        return { status: 200, body: { events: items.map(toMobileMoneyEvent), nextCursor } };
      },
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
