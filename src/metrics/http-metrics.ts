import type { AccessLog } from '../http/access-log.js';
import type { Metrics } from '../infrastructure/metrics.js';

/**
 * Every answered request counted and timed, then handed to the access log (when on): both are
 * fed from the one place that knows the route pattern, the status and the start time. The route
 * is a pattern (`/v1/messages/:id`, `dashboard`, `unmatched`), so the label sets stay bounded.
 */
export function recordRequests(metrics: Metrics, log: AccessLog | undefined): AccessLog {
  return (entry) => {
    metrics.requests.record(entry.route, entry.method, entry.status, (performance.now() - entry.startedAt) / 1000);
    log?.(entry);
  };
}
