import type { AppContext } from '../context/app-context.js';
import { memberRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { packageVersion } from '../version.js';
import { selectDeliveryWithBody, toAttempts, toDelivery } from './delivery-row.js';
import { SIGNATURE_HEADER, webhookRequestHeaders } from './delivery/headers.js';

/**
 * GET /dashboard/v1/webhooks/{endpointId}/deliveries/{deliveryId}: a delivery with the request it
 * sends and its last attempts (newest first), for the dashboard's inspector. The signature is made anew at each attempt (it signs the
 * time), so its value is described, not shown; the secret never leaves the server.
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
  ];
}
