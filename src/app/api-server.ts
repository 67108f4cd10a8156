import { AddressBuckets } from '../limits/address-buckets.js';
import { SlowRefusals } from '../limits/slow-refusals.js';
import { limitedRequests, tenantBulkheads } from '../limits/limited-requests.js';
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
import { accessLog, type AccessLog } from '../http/access-log.js';
import { readiness } from '../health/readiness.js';
import { attachHealth } from '../health/routes.js';
import { attachMetrics } from '../metrics/routes.js';
import { recordRequests } from '../metrics/http-metrics.js';
import { prepareLanTls } from '../tls/lan-certificate.js';
import { attachCaDownload } from '../tls/ca-route.js';
import { recordAudit } from '../audit/record-audit.js';
import { dashboardPages } from '../dashboard/static-files.js';

export interface ApiServer {
  port: number;
  /** The HAFATRA_COMPAT_PORT listener's port, when enabled. */
  compatPort: number | null;
  close(): Promise<void>;
}

export interface ApiExtensions {
  /** Phone authentication and sockets join here (src/devices). */
  deviceAuthenticator?: Authenticators['device'];
  /** accessLog: the process's access log, for handlers registered beside the router. */
  attach?: (app: TemplatedApp, accessLog?: AccessLog) => void;
  onClose?: () => Promise<void>;
}

export async function startApiServer(ctx: AppContext, ext: ApiExtensions = {}): Promise<ApiServer> {
  await contextReady(ctx);
  const inflight = { count: 0 };
  const ready = readiness(ctx);
  const access = recordRequests(ctx.metrics, accessLog(ctx.log, ctx.config.accessLog));
  const limited = limitedRequests(ctx);
  // The bodies of GET /v1/messages/{id} are kept only while this process hears every change.
  const stopHearingChanges = ctx.changes.listen(ctx.config.redisUrl);
  const tls = ctx.config.https ? await prepareLanTls(ctx.config.dataDir, ctx.config.httpsNames) : null;
  if (tls) ctx.log.info({ names: tls.names, caFingerprint: tls.ca.fingerprint }, 'HTTPS with the local CA');
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
      recordAudit: (principal, address, entry) => recordAudit(ctx.db, principal, address, entry),
      dashboard: dashboardPages(),
      bodyLimitBytes: ctx.config.bodyLimitBytes,
      trustProxy: ctx.config.trustProxy,
      anonymousLimit: new AddressBuckets(ctx.config.anonymousRatePerSecond, ctx.config.anonymousBurst),
      bulkheads: tenantBulkheads(ctx.config.orgConcurrency, ctx.config.pgPoolSize),
      slowRefusals: new SlowRefusals({ graceRefusals: ctx.config.refusalGrace, delayMs: ctx.config.refusalDelayMs, maxHeld: ctx.config.refusalsHeldMax }),
      onLimited: limited,
      onPaced: (pace) => ctx.metrics.pacedRefusals.inc({ pace }),
      log: ctx.log,
      accessLog: access,
      inflight,
    },
    (app) => {
      attachHealth(app, { log: ctx.log, readiness: ready, accessLog: access });
      attachMetrics(app, { log: ctx.log, metrics: ctx.metrics, token: ctx.config.metricsToken, accessLog: access });
      if (tls) attachCaDownload(app, tls.ca, { log: ctx.log, accessLog: access });
      ext.attach?.(app, access);
    },
    tls ? { keyAndCertFile: tls.file } : undefined,
  );
  const port = await server.listen(ctx.config.host, ctx.config.port);
  ctx.log.info({ port }, 'API listening');
  const compat = ctx.config.compatPort === null ? null : await startCompatListener({ host: ctx.config.host, port: ctx.config.compatPort, upstreamPort: port, log: ctx.log });
  if (compat) ctx.log.info({ port: compat.port }, 'compatibility listener (HTTP/1.0, pipelining) listening');
  return {
    port,
    compatPort: compat?.port ?? null,
    /**
     * A drain (SIGTERM): /readyz answers 503 `draining` at once while everything is still served
     * for HAFATRA_DRAIN_SECONDS, long enough for a balancer to see it and send no new work; then
     * the listeners close, requests in flight finish, and phones are told to reconnect (1001).
     */
    async close() {
      ready.startDraining();
      if (ctx.config.drainSeconds > 0) {
        ctx.log.info({ seconds: ctx.config.drainSeconds }, 'draining: not ready, still serving');
        await new Promise((r) => setTimeout(r, ctx.config.drainSeconds * 1000));
      }
      await compat?.close();
      await server.close();
      await ext.onClose?.();
      await limited.stop();
      await stopHearingChanges();
    },
  };
}
