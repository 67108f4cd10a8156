import { Type } from '@sinclair/typebox';
import type { AppContext } from '../context/app-context.js';
import { memberRoute, type AnyRoute } from '../http/router.js';
import { Text } from '../schemas/schema-kit.js';
import { searchIncoming, searchMessages } from './search.js';

const SearchQuery = Type.Object({ q: Text({ minLength: 3, maxLength: 200, errorMessage: 'must be 3 to 200 characters: part of a number, a text or an id' }) }, { additionalProperties: false });

/** The dashboard's search boxes: messages and received SMS, the newest 50 matches (docs/dashboard-api.md). */
export function searchRoutes(ctx: AppContext): AnyRoute[] {
  return [
    memberRoute({
      method: 'get',
      path: '/dashboard/v1/search/messages',
      auth: { role: 'viewer' },
      query: SearchQuery,
      summary: 'Messages by id, recipient (whole or in part) or text, newest first, at most 50',
      handler: async (req) => ({ status: 200, body: { messages: await searchMessages(ctx, req.principal.orgId, req.query.q.trim()) } }),
    }),
    memberRoute({
      method: 'get',
      path: '/dashboard/v1/search/incoming',
      auth: { role: 'viewer' },
      query: SearchQuery,
      summary: 'Received SMS by id, sender (whole or in part) or text, newest first, at most 50',
      handler: async (req) => ({ status: 200, body: { incoming: await searchIncoming(ctx, req.principal.orgId, req.query.q.trim()) } }),
    }),
  ];
}
