import type { AppContext } from '../context/app-context.js';
import { memberRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { packageVersion } from '../package/version.js';
import { toAttempts, toDelivery } from './delivery-row.js';
import { selectDeliveryWithBody } from './sql/select-delivery-with-body.js';
import { SIGNATURE_HEADER, webhookRequestHeaders } from './delivery/headers.js';
import { selectMessage } from '../messages/sql/select-message.js';
import { selectMessageWebhookEvents } from './sql/select-message-webhook-events.js';

/**
 * GET /dashboard/v1/webhooks/{endpointId}/deliveries/{deliveryId}: a delivery with the request it
 * sends and its last attempts (newest first), for the dashboard's inspector. The signature is made anew at each attempt (it signs the
 * time), so its value is described, not shown; the secret never leaves the server.
 * GET /dashboard/v1/messages/{messageId}/webhook-events: the events about a message and their
 * deliveries, the message page's way into the inspector.
 */
export function webhookInspectRoutes(ctx: AppContext): AnyRoute[] {
  return [
    memberRoute({
      method: 'get',
      path: '/dashboard/v1/webhooks/:endpointId/deliveries/:deliveryId',
      auth: { role: 'viewer' },
      summary: 'A webhook delivery with the request it sends (URL, headers, body) and its last 10 attempts',
      handler: async (req) => {
        const row = await selectDeliveryWithBody(ctx.db, req.principal.orgId, req.params.endpointId!, req.params.deliveryId!);
        if (!row) throw errors.notFound('webhook delivery');
        const headers = webhookRequestHeaders({ signature: 't=<time of the attempt>,v1=<HMAC-SHA256 of the body>', eventId: row.eventId, eventType: row.eventType, version: packageVersion });
        return {
          status: 200,
          body: {
            delivery: toDelivery(row),
            request: { method: 'POST', url: row.url, headers, body: row.body, signatureHeader: SIGNATURE_HEADER },
            attempts: toAttempts(row.attemptLog),
          },
        };
      },
    }),
    memberRoute({
      method: 'get',
      path: '/dashboard/v1/messages/:messageId/webhook-events',
      auth: { role: 'viewer' },
      summary: 'The webhook events about a message (the newest 50, oldest first) and their deliveries',
      handler: async (req) => {
        const { orgId } = req.principal;
        if (!(await selectMessage(ctx.db, orgId, req.params.messageId!))) throw errors.notFound('message');
        return { status: 200, body: { events: await selectMessageWebhookEvents(ctx.db, orgId, req.params.messageId!) } };
      },
    }),
  ];
}
