import type { AppContext } from '../context/app-context.js';
import { createHttpServer } from '../http/server.js';
import { startCompatListener } from '../http/compat-listener.js';
import { apiKeyAuthenticator } from '../auth/authenticate-api-key.js';
import { sessionAuthenticator } from '../auth/authenticate-session.js';
import { errors } from '../errors/errors.js';
import { apiRoutes } from './routes.js';
import { contextReady } from './runtime.js';
import type { Authenticators } from '../http/router.js';
import type { TemplatedApp } from '../http/uws.js';

export interface ApiServer {
  port: number;
  /** The HAFATRA_COMPAT_PORT listener's port, when enabled. */
  compatPort: number | null;
  close(): Promise<void>;
}

export interface ApiExtensions {
  /** Phone authentication and sockets join here (src/devices). */
  deviceAuthenticator?: Authenticators['device'];
  attach?: (app: TemplatedApp) => void;
  onClose?: () => Promise<void>;
}

export async function startApiServer(ctx: AppContext, ext: ApiExtensions = {}): Promise<ApiServer> {
  await contextReady(ctx);
  const inflight = { count: 0 };
  const server = createHttpServer(
    apiRoutes(ctx),
    {
      authenticators: {
        apiKey: apiKeyAuthenticator(ctx),
        member: sessionAuthenticator(ctx),
        device:
          ext.deviceAuthenticator ??
          (async () => {
            throw errors.unauthorized('device access is not enabled');
          }),
      },
      auditDb: ctx.db,
      bodyLimitBytes: ctx.config.bodyLimitBytes,
      trustProxy: ctx.config.trustProxy,
      log: ctx.log,
      inflight,
    },
    ext.attach,
  );
  const port = await server.listen(ctx.config.host, ctx.config.port);
  ctx.log.info({ port }, 'API listening');
  const compat = ctx.config.compatPort === null ? null : await startCompatListener({ host: ctx.config.host, port: ctx.config.compatPort, upstreamPort: port, log: ctx.log });
  if (compat) ctx.log.info({ port: compat.port }, 'compatibility listener (HTTP/1.0, pipelining) listening');
  return {
    port,
    compatPort: compat?.port ?? null,
    async close() {
      await compat?.close();
      await server.close();
      await ext.onClose?.();
    },
  };
}
