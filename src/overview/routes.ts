import { Type } from '@sinclair/typebox';
import type { AppContext } from '../context/app-context.js';
import { memberRoute, type AnyRoute } from '../http/router.js';
import { messageStats, overview } from './overview.js';

const StatsQuery = Type.Object(
  {
    range: Type.Optional(Type.Union([Type.Literal('24h'), Type.Literal('7d')], { errorMessage: 'must be 24h or 7d' })),
  },
  { additionalProperties: false },
);

/** The Overview page's figures, from maintained tallies (src/overview/tallies.ts), never a count of messages. */
export function overviewRoutes(ctx: AppContext): AnyRoute[] {
  return [
    memberRoute({
      method: 'get',
      path: '/dashboard/v1/overview',
      auth: { role: 'viewer' },
      summary: "Today's messages by status against the daily limit, delivery rate, phones, failing webhooks",
      handler: async (req) => ({ status: 200, body: await overview(ctx, req.principal.orgId) }),
    }),
    memberRoute({
      method: 'get',
      path: '/dashboard/v1/stats/messages',
      auth: { role: 'viewer' },
      query: StatsQuery,
      summary: 'Messages per hour by status over the last 24 hours or 7 days',
      handler: async (req) => ({ status: 200, body: await messageStats(ctx, req.principal.orgId, req.query.range ?? '24h') }),
    }),
  ];
}
