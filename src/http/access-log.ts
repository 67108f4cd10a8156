import type { Logger } from '../logging/logger.js';

export interface AccessEntry {
  requestId: string;
  method: string;
  /** The route's pattern (`/v1/messages/:id`), never the raw path: ids would make every line unique, and a query may hold secrets. */
  route: string;
  status: number;
  /** performance.now() when the request arrived. */
  startedAt: number;
  /** The client went away before the answer: status is what it would have been sent. */
  aborted: boolean;
}

export type AccessLog = (entry: AccessEntry) => void;

/**
 * One `info` line per answered HTTP request (HAFATRA_ACCESS_LOG), or undefined when off so the
 * hot path pays nothing. Only these fields are written: no header, no query string, no body.
 */
export function accessLog(log: Logger, enabled: boolean): AccessLog | undefined {
  if (!enabled || !log.isLevelEnabled('info')) return undefined;
  return ({ requestId, method, route, status, startedAt, aborted }) => {
    const ms = Math.round((performance.now() - startedAt) * 10) / 10;
    log.info(aborted ? { requestId, method, route, status, ms, aborted } : { requestId, method, route, status, ms }, 'request');
  };
}
