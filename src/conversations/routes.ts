import { Type } from '@sinclair/typebox';
import type { AppContext } from '../context/app-context.js';
import { memberRoute, type AnyRoute } from '../http/router.js';
import { Text } from '../schemas/schema-kit.js';
import { conversation } from './conversation.js';

// In the query, not the path: a number as typed holds spaces and `+`, which path ids do not.
const ConversationQuery = Type.Object({ number: Text({ minLength: 1, maxLength: 32 }) }, { additionalProperties: false });

/** GET /dashboard/v1/conversation?number=: one contact's thread (docs/dashboard-api.md). */
export function conversationRoutes(ctx: AppContext): AnyRoute[] {
  return [
    memberRoute({
      method: 'get',
      path: '/dashboard/v1/conversation',
      auth: { role: 'viewer' },
      query: ConversationQuery,
      summary: 'What was sent to a number and received from it, oldest first (the newest 100 of each)',
      handler: async (req) => ({ status: 200, body: await conversation(ctx, req.principal.orgId, req.query.number) }),
    }),
  ];
}
