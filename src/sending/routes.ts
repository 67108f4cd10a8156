import type { AppContext } from '../context/app-context.js';
import { apiRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { listPage } from '../http/pagination.js';
import { ListMessagesQuery, MessageDetailSchema, MessagePageSchema, SendMessagesBody, SendResultSchema } from './schemas.js';
import { sendMessagesAnswer } from './send-messages.js';
import { cancelMessage } from './cancel-message.js';
import { resendMessage } from './resend-message.js';
import { selectFilteredMessagePage } from '../messages/sql/select-filtered-message-page.js';
import { messageDetailReader } from '../messages/detail-cache/detail-reader.js';
import type { CachedDetail } from '../messages/detail-cache/detail-cache.js';
import { selectMessagePage } from '../messages/sql/select-message-page.js';
import { findOrganization } from '../orgs/sql/find-organization.js';
import { normalizeRecipient } from '../messages/recipients.js';
import { MessageSchema, toMessage } from '../messages/message.js';

export function messageRoutes(ctx: AppContext): AnyRoute[] {
  const detailOf = messageDetailReader(ctx, ctx.changes);
  return [
    apiRoute({
      method: 'post',
      path: '/v1/messages',
      auth: { scope: 'messages:send' },
      body: SendMessagesBody,
      idempotencyKey: true,
      audit: { action: 'messages.sent', target: (req) => req.reply.batchId, detail: (req) => ({ messages: req.reply.messages.length }), membersOnly: true },
      summary: 'Send an SMS to one or many recipients (each becomes its own message)',
      responses: { 202: SendResultSchema },
      handler: async (req) => {
        const answer = await sendMessagesAnswer(ctx, req.principal.orgId, { ...req.body, byMember: req.principal.kind === 'member' }, req.headers.idempotencyKey);
        // body: what the audit entry reads; json: what is written.
        return { status: 202, body: answer.result, json: answer.json() };
      },
    }),
    apiRoute({
      method: 'get',
      path: '/v1/messages',
      auth: { scope: 'messages:read' },
      query: ListMessagesQuery,
      summary: 'List messages, newest first',
      responses: { 200: MessagePageSchema },
      handler: async (req) => {
        const { orgId } = req.principal;
        const { status, deviceId } = req.query;
        if (req.query.to === undefined && deviceId === undefined) {
          return listPage(req.query, 'messages', (p) => selectMessagePage(ctx.hotDb, { orgId, status, ...p }));
        }
        let to: string | undefined;
        if (req.query.to !== undefined) {
          const org = await findOrganization(ctx.db, orgId);
          to = normalizeRecipient(req.query.to, org?.defaultCountry ?? 'MG') ?? undefined;
          if (to === undefined) throw errors.invalid(`to: ${JSON.stringify(req.query.to)} is not a phone number`);
        }
        return listPage(req.query, 'messages', (p) => selectFilteredMessagePage(ctx.db, { orgId, status, deviceId, to, ...p }), toMessage);
      },
    }),
    apiRoute({
      method: 'get',
      path: '/v1/messages/:messageId',
      auth: { scope: 'messages:read' },
      summary: 'A message with its timeline',
      responses: { 200: MessageDetailSchema },
      prefetch: (params) => detailOf(params.messageId!),
      handler: async (req) => {
        const detail = (await req.prefetched) as CachedDetail | undefined;
        if (!detail || detail.orgId !== req.principal.orgId) throw errors.notFound('message');
        return { status: 200, json: detail.json };
      },
    }),
    apiRoute({
      method: 'post',
      path: '/v1/messages/:messageId/cancel',
      auth: { scope: 'messages:send' },
      summary: 'Cancel a message no phone has claimed yet',
      responses: { 200: MessageSchema },
      audit: { action: 'message.cancelled', target: (req) => req.params.messageId! },
      handler: async (req) => ({ status: 200, body: await cancelMessage(ctx, req.principal.orgId, req.params.messageId!, req.principal.kind === 'member' ? 'member' : 'api') }),
    }),
    apiRoute({
      method: 'post',
      path: '/v1/messages/:messageId/resend',
      auth: { scope: 'messages:send' },
      idempotencyKey: true,
      summary: 'Send a message in a final status again, as a new message with resendOfId',
      responses: { 202: SendResultSchema },
      handler: async (req) => ({
        status: 202,
        body: await resendMessage(ctx, req.principal.orgId, req.params.messageId!, req.headers.idempotencyKey, req.principal.kind === 'member'),
      }),
      audit: { action: 'message.resent', target: (req) => req.params.messageId! },
    }),
  ];
}
