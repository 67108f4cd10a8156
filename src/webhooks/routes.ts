import { Type } from '@sinclair/typebox';
import type { AppContext } from '../context/app-context.js';
import { sendTestEvent, redeliver, type Enqueue } from './manual-deliveries.js';
import { enqueueDeliveries, openDeliveryQueue, type DeliveryQueue } from './queue.js';
import { apiRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { listPage } from '../http/pagination.js';
import { EVENT_TYPES } from '../events/record-events.js';
import { checkWebhookUrl } from './delivery/safe-url.js';
import { findOrganization } from '../orgs/sql/find-organization.js';
import { newWebhookSecret } from './delivery/signature.js';
import { toEndpoint } from './endpoint-row.js';
import { toDelivery } from './delivery-row.js';
import { selectDeliveryPage } from './sql/select-delivery-page.js';
import { insertEndpoint, updateEndpoint } from './endpoint-store.js';
import { deleteEndpoint } from './sql/delete-endpoint.js';
import { rotateEndpointSecret } from './sql/rotate-endpoint-secret.js';
import { selectEndpoint } from './sql/select-endpoint.js';
import { selectEndpoints } from './sql/select-endpoints.js';
import { CreateWebhookEndpointBody, DeliveryPageQuery, DeliveryPageSchema, EndpointListSchema, EndpointWithSecretSchema, UpdateWebhookEndpointBody, WebhookEndpointSchema } from './schemas.js';

/**
 * A URL that is neither public HTTPS nor one of the organization's private targets is a 400
 * naming the reason (the spec's invalid_request). The setting is read now: no restart needed.
 */
async function assertDeliverableUrl(ctx: AppContext, orgId: string, url: string): Promise<void> {
  const org = await findOrganization(ctx.db, orgId);
  const check = await checkWebhookUrl(url, {
    allowHosts: ctx.config.webhookAllowHosts,
    privateTargets: org?.webhookPrivateTargets,
    plainHttp: org?.webhookPlainHttp,
  });
  if (!check.ok) throw errors.invalid(`url: ${check.reason}`);
}

const found = <T>(row: T | null): T => {
  if (!row) throw errors.notFound('webhook endpoint');
  return row;
};

export function webhookRoutes(ctx: AppContext): AnyRoute[] {
  // Test events and deliveries sent again are queued from here, on the process's own Redis
  // connection (a queue only adds jobs; the workers hold the blocking connections).
  let queue: Promise<DeliveryQueue> | undefined;
  const enqueue: Enqueue = async (deliveries) => enqueueDeliveries(await (queue ??= openDeliveryQueue(ctx, ctx.redis)), deliveries);
  return [
    apiRoute({
      method: 'get',
      path: '/v1/webhooks',
      auth: { scope: 'webhooks:read' },
      summary: 'List webhook endpoints and the subscribable event types',
      responses: { 200: EndpointListSchema },
      handler: async (req) => ({
        status: 200,
        body: { endpoints: (await selectEndpoints(ctx.db, req.principal.orgId)).map(toEndpoint), eventTypes: [...EVENT_TYPES] },
      }),
    }),
    apiRoute({
      method: 'post',
      path: '/v1/webhooks',
      auth: { scope: 'webhooks:write' },
      body: CreateWebhookEndpointBody,
      audit: { action: 'webhook.created', target: (req) => req.reply.endpoint.id, detail: (req) => ({ url: req.body.url }) },
      summary: 'Register a webhook endpoint; its signing secret is returned only here',
      responses: { 201: EndpointWithSecretSchema },
      handler: async (req) => {
        await assertDeliverableUrl(ctx, req.principal.orgId, req.body.url);
        const secret = newWebhookSecret();
        const row = await insertEndpoint(ctx.db, req.principal.orgId, {
          url: req.body.url,
          description: req.body.description ?? null,
          eventTypes: req.body.eventTypes,
          secret,
        });
        return { status: 201, body: { endpoint: toEndpoint(row), secret } };
      },
    }),
    apiRoute({
      method: 'get',
      path: '/v1/webhooks/:endpointId',
      auth: { scope: 'webhooks:read' },
      summary: 'A webhook endpoint',
      responses: { 200: WebhookEndpointSchema },
      handler: async (req) => ({ status: 200, body: toEndpoint(found(await selectEndpoint(ctx.db, req.principal.orgId, req.params.endpointId!))) }),
    }),
    apiRoute({
      method: 'patch',
      path: '/v1/webhooks/:endpointId',
      auth: { scope: 'webhooks:write' },
      body: UpdateWebhookEndpointBody,
      audit: { action: 'webhook.updated', target: (req) => req.params.endpointId! },
      summary: 'Change url, description, eventTypes or enabled (re-enabling resets consecutiveFailures)',
      responses: { 200: WebhookEndpointSchema },
      handler: async (req) => {
        found(await selectEndpoint(ctx.db, req.principal.orgId, req.params.endpointId!));
        if (req.body.url !== undefined) await assertDeliverableUrl(ctx, req.principal.orgId, req.body.url);
        const row = found(await updateEndpoint(ctx.db, req.principal.orgId, req.params.endpointId!, req.body));
        return { status: 200, body: toEndpoint(row) };
      },
    }),
    apiRoute({
      method: 'delete',
      path: '/v1/webhooks/:endpointId',
      auth: { scope: 'webhooks:write' },
      audit: { action: 'webhook.deleted', target: (req) => req.params.endpointId! },
      summary: 'Delete a webhook endpoint with its delivery history; its pending deliveries stop',
      responses: { 204: null },
      handler: async (req) => {
        if (!(await deleteEndpoint(ctx.db, req.principal.orgId, req.params.endpointId!))) throw errors.notFound('webhook endpoint');
        return { status: 204 };
      },
    }),
    apiRoute({
      method: 'get',
      path: '/v1/webhooks/:endpointId/deliveries',
      auth: { scope: 'webhooks:read' },
      query: DeliveryPageQuery,
      summary: 'The delivery log of an endpoint, newest first',
      responses: { 200: DeliveryPageSchema },
      handler: async (req) => {
        const endpoint = found(await selectEndpoint(ctx.db, req.principal.orgId, req.params.endpointId!));
        return listPage(req.query, 'deliveries', (p) => selectDeliveryPage(ctx.db, endpoint.id, p.before, p.limit), toDelivery);
      },
    }),
    apiRoute({
      method: 'post',
      path: '/v1/webhooks/:endpointId/rotate-secret',
      auth: { scope: 'webhooks:write' },
      audit: { action: 'webhook.secret_rotated', target: (req) => req.params.endpointId! },
      summary: 'Replace the signing secret; the previous one keeps signing for 24 hours',
      responses: { 200: EndpointWithSecretSchema },
      handler: async (req) => {
        const secret = newWebhookSecret();
        const row = found(await rotateEndpointSecret(ctx.db, req.principal.orgId, req.params.endpointId!, secret));
        return { status: 200, body: { endpoint: toEndpoint(row), secret } };
      },
    }),
    apiRoute({
      method: 'post',
      path: '/v1/webhooks/:endpointId/test',
      auth: { scope: 'webhooks:write' },
      audit: { action: 'webhook.test_sent', target: (req) => req.params.endpointId! },
      summary: 'Send a test event (type webhook.test) to this endpoint; it appears in the delivery log',
      responses: { 202: Type.Object({ deliveryId: Type.String(), eventId: Type.String() }) },
      handler: async (req) => ({ status: 202, body: await sendTestEvent(ctx.db, enqueue, req.principal.orgId, req.params.endpointId!) }),
    }),
    apiRoute({
      method: 'post',
      path: '/v1/webhooks/:endpointId/deliveries/:deliveryId/redeliver',
      auth: { scope: 'webhooks:write' },
      audit: { action: 'webhook.redelivered', target: (req) => req.params.deliveryId! },
      summary: 'Send a dead or retrying delivery again, now',
      responses: { 202: Type.Object({ deliveryId: Type.String() }) },
      handler: async (req) => {
        await redeliver(ctx.db, enqueue, req.principal.orgId, req.params.endpointId!, req.params.deliveryId!);
        return { status: 202, body: { deliveryId: req.params.deliveryId } };
      },
    }),
  ];
}
