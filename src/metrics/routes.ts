import { createHash, timingSafeEqual } from 'node:crypto';
import type { TemplatedApp } from '../http/uws.js';
import { guarded, replySafely } from '../http/guard.js';
import { errorReply, type Reply } from '../http/reply.js';
import type { AccessLog } from '../http/access-log.js';
import { errors } from '../errors/errors.js';
import type { Logger } from '../logging/logger.js';
import type { Metrics } from '../infrastructure/metrics.js';

export interface MetricsRouteDeps {
  log: Logger;
  metrics: Metrics;
  /** HAFATRA_METRICS_TOKEN; empty: /metrics is off. */
  token: string;
  accessLog?: AccessLog;
}

// Hashed first so the comparison takes the same time whatever the lengths of the two tokens.
const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether an Authorization header carries `Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

/**
 * GET /metrics: this process's metrics in the Prometheus text format, for a scraper holding
 * HAFATRA_METRICS_TOKEN. Unset, it answers exactly like an unknown route (404), so a default
 * install exposes nothing. Registered on uWS directly like /healthz: no API key, not in /v1.
 */
export function attachMetrics(app: TemplatedApp, deps: MetricsRouteDeps): void {
  if (deps.token !== '') deps.metrics.withProcessMetrics();
  app.get(
    '/metrics',
    guarded(deps.log, 'get /metrics', (res, req, { state, requestId }) => {
      const startedAt = performance.now();
      // Off, it is logged and counted as the unknown route it pretends to be.
      const route = deps.token === '' ? 'unmatched' : '/metrics';
      const done = (reply: Reply) => {
        const status = replySafely(res, state, requestId, reply, deps.log);
        deps.accessLog?.({ requestId, method: 'GET', route, status, startedAt, aborted: state.aborted });
      };
      if (deps.token === '') return done(errorReply(errors.notFound('route'), requestId));
      if (!bearerMatches(req.getHeader('authorization'), deps.token)) return done(errorReply(errors.unauthorized('a valid metrics token is required'), requestId));
      void deps.metrics.registry.metrics().then(
        (text) => done({ status: 200, raw: { body: Buffer.from(text, 'utf8'), contentType: deps.metrics.registry.contentType }, headers: { 'cache-control': 'no-store' } }),
        (err: unknown) => {
          deps.log.error({ err, requestId }, 'metrics not collected');
          done(errorReply(errors.internal(), requestId));
        },
      );
    }),
  );
}
