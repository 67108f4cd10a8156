import type { AppContext } from '../context/app-context.js';
import { apiRoute, deviceRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { listPage } from '../http/pagination.js';
import { IncomingBatchBody, IncomingBatchResultSchema, IncomingMessageSchema, IncomingPageSchema, ListIncomingQuery } from './schemas.js';
import { toIncomingMessage } from './incoming-row.js';
import { selectIncoming } from './sql/select-incoming.js';
import { selectIncomingPage } from './sql/select-incoming-page.js';
import { recordIncomingMany } from './record-incoming.js';

export function incomingRoutes(ctx: AppContext): AnyRoute[] {
  return [
    apiRoute({
      method: 'get',
      path: '/v1/incoming',
      auth: { scope: 'incoming:read' },
      query: ListIncomingQuery,
      summary: 'List received SMS, newest first',
      responses: { 200: IncomingPageSchema },
      handler: (req) => listPage(req.query, 'messages', (p) => selectIncomingPage(ctx.db, { orgId: req.principal.orgId, deviceId: req.query.deviceId, ...p }), toIncomingMessage),
    }),
    apiRoute({
      method: 'get',
      path: '/v1/incoming/:incomingId',
      auth: { scope: 'incoming:read' },
      summary: 'A received SMS',
      responses: { 200: IncomingMessageSchema },
      handler: async (req) => {
        const row = await selectIncoming(ctx.db, req.principal.orgId, req.params.incomingId!);
        if (!row) throw errors.notFound('incoming message');
        return { status: 200, body: toIncomingMessage(row) };
      },
    }),
    deviceRoute({
      method: 'post',
      path: '/device/v1/incoming',
      auth: { device: true },
      body: IncomingBatchBody,
      summary: 'A phone reports received SMS (deduplicated by clientId; parts are joined)',
      responses: { 200: IncomingBatchResultSchema },
      handler: async (req) => ({ status: 200, body: { results: await recordIncomingMany(ctx, req.principal, req.body.messages) } }),
    }),
  ];
}
