import type { TemplatedApp } from '../http/uws.js';
import { guarded, replySafely } from '../http/guard.js';
import type { Reply } from '../http/reply.js';
import type { AccessLog } from '../http/access-log.js';
import type { Logger } from '../logging/logger.js';
import type { Readiness } from './readiness.js';

export interface HealthDeps {
  log: Logger;
  readiness: Readiness;
  accessLog?: AccessLog;
}

// A balancer must not be served a cached answer by anything in between.
const NO_STORE = { 'cache-control': 'no-store' };

/**
 * GET /healthz (the process answers) and GET /readyz (Postgres and Redis answer in time and the
 * node is not draining), for load balancers: no credential, not in the /v1 OpenAPI document.
 * Registered on uWS directly, outside the router: no authentication, body or schema to pay for.
 */
export function attachHealth(app: TemplatedApp, deps: HealthDeps): void {
  const logged = (route: string, requestId: string, startedAt: number, status: number, aborted: boolean) => deps.accessLog?.({ requestId, method: 'GET', route, status, startedAt, aborted });

  app.get(
    '/healthz',
    guarded(deps.log, 'get /healthz', (res, _req, { state, requestId }) => {
      const startedAt = performance.now();
      const status = replySafely(res, state, requestId, { status: 200, body: { status: 'ok' }, headers: NO_STORE }, deps.log);
      logged('/healthz', requestId, startedAt, status, state.aborted);
    }),
  );

  app.get(
    '/readyz',
    guarded(deps.log, 'get /readyz', (res, _req, { state, requestId }) => {
      const startedAt = performance.now();
      void deps.readiness.check().then(
        (reasons) => {
          const reply: Reply = reasons.length === 0 ? { status: 200, body: { status: 'ready' }, headers: NO_STORE } : { status: 503, body: { status: 'not_ready', reasons }, headers: NO_STORE };
          logged('/readyz', requestId, startedAt, replySafely(res, state, requestId, reply, deps.log), state.aborted);
        },
        (err: unknown) => {
          deps.log.error({ err, requestId }, 'readiness check failed');
          const reply: Reply = { status: 503, body: { status: 'not_ready', reasons: ['check_failed'] }, headers: NO_STORE };
          logged('/readyz', requestId, startedAt, replySafely(res, state, requestId, reply, deps.log), state.aborted);
        },
      );
    }),
  );
}
