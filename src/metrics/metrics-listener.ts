import { nativeUws, type us_listen_socket } from '../http/uws.js';
import { guarded } from '../http/guard.js';
import { errorReply, sendReply } from '../http/reply.js';
import { errors } from '../errors/errors.js';
import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { attachMetrics } from './routes.js';

export interface MetricsListener {
  port: number;
  close(): void;
}

/**
 * HAFATRA_METRICS_PORT: a listener serving only GET /metrics (same token rule as the API's), for
 * `hafatra worker`, which has no HTTP server of its own. Every other path answers 404.
 */
export async function startMetricsListener(ctx: Pick<Infrastructure, 'log' | 'metrics' | 'config'>, host: string, port: number): Promise<MetricsListener> {
  const uWS = nativeUws();
  const app = uWS.App();
  attachMetrics(app, { log: ctx.log, metrics: ctx.metrics, token: ctx.config.metricsToken });
  app.any(
    '/*',
    guarded(ctx.log, 'metrics listener /*', (res, _req, { state, requestId }) => sendReply(res, state, requestId, errorReply(errors.notFound('route'), requestId))),
  );
  const socket = await new Promise<us_listen_socket>((resolve, reject) => app.listen(host, port, (s) => (s ? resolve(s) : reject(new Error(`cannot listen on ${host}:${port}`)))));
  return {
    port: uWS.us_socket_local_port(socket),
    close: () => uWS.us_listen_socket_close(socket),
  };
}
