import type { AppContext } from '../context/app-context.js';
import type { AnyRoute } from '../http/router.js';
import { messageRoutes } from '../sending/routes.js';
import { openApiRoute } from '../http/openapi.js';
import { webhookRoutes } from '../webhooks/routes.js';
import { dispatchRoutes } from '../dispatch/routes.js';
import { deviceRoutes } from '../devices/routes.js';
import { incomingRoutes } from '../incoming/routes.js';
import { mobileMoneyRoutes } from '../mobile-money/routes.js';
import { membersRoutes } from '../members/routes.js';
import { auditRoutes } from '../audit/routes.js';
import { apiKeyRoutes } from '../api-keys/routes.js';
import { organizationRoutes } from '../org-settings/routes.js';
import { pairingRoutes } from '../devices/pairing-routes.js';
import { pacingRoutes } from '../devices/pacing-routes.js';
import { messageDashboardRoutes } from '../sending/dashboard-routes.js';
import { overviewRoutes } from '../overview/routes.js';
import { searchRoutes } from '../search/routes.js';
import { conversationRoutes } from '../conversations/routes.js';
import { webhookInspectRoutes } from '../webhooks/inspect-routes.js';
import { optOutRoutes } from '../opt-outs/routes.js';
import { sendWindowsRoutes } from '../org-settings/send-window-routes.js';

/** Every HTTP route of the API process, by domain. */
export function apiRoutes(ctx: AppContext): AnyRoute[] {
  const routes: AnyRoute[] = [
    ...messageRoutes(ctx),
    ...deviceRoutes(ctx),
    ...dispatchRoutes(ctx),
    ...incomingRoutes(ctx),
    ...mobileMoneyRoutes(ctx),
    ...webhookRoutes(ctx),
    ...membersRoutes(ctx),
    ...auditRoutes(ctx),
    ...apiKeyRoutes(ctx),
    ...organizationRoutes(ctx),
    ...pairingRoutes(ctx),
    ...pacingRoutes(ctx),
    ...messageDashboardRoutes(ctx),
    ...overviewRoutes(ctx),
    ...searchRoutes(ctx),
    ...conversationRoutes(ctx),
    ...webhookInspectRoutes(ctx),
    ...optOutRoutes(ctx),
    ...sendWindowsRoutes(ctx),
  ];
  return [...routes, openApiRoute(routes)];
}
