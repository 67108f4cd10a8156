import type { AppContext } from '../context/app-context.js';
import type { TemplatedApp } from '../http/uws.js';
import type { AccessLog } from '../http/access-log.js';
import type { PresenceLease } from '../devices/presence.js';
import { registerMobileRoutes } from './mobile-route.js';
import { deviceRoutes } from './device-routes.js';
import { userRoutes } from './user-routes.js';
import { attachAppStreams, type AppStreams } from './event-streams.js';
import { messageRoutes } from './message-routes.js';
import { StatusReportWriter } from '../dispatch/status-reports.js';
import { attachPhoneWebhookRoutes } from './webhook-routes.js';

export interface MobileApiDeps {
  lease: PresenceLease;
  markSocket(deviceId: string, connected: boolean, generation?: number, processId?: string): Promise<number | null>;
  accessLog?: AccessLog;
}

/**
 * The mobile API of SMS Gateway for Android, on the API's port under /mobile/v1: a phone running
 * that app in "private server" mode is a Hafatra device (docs/device-protocol.md, "SMS Gateway
 * for Android"). Returns its event streams, closed with the server.
 */
export function attachMobileApi(app: TemplatedApp, ctx: AppContext, deps: MobileApiDeps): AppStreams {
  // The phones' reports share batched writes, as the socket server's do.
  const reports = new StatusReportWriter(ctx);
  registerMobileRoutes(app, ctx, [...deviceRoutes(ctx), ...messageRoutes(ctx, reports), ...userRoutes()], deps.accessLog);
  attachPhoneWebhookRoutes(app, ctx, reports, deps.accessLog);
  const streams = attachAppStreams(app, ctx, deps);
  return {
    ...streams,
    async close() {
      await streams.close();
      await reports.flush();
    },
  };
}
