import type { AppContext } from '../context/app-context.js';
import { Bulkhead } from '../http/bulkhead.js';

/** An organization's requests, and a phone's HTTP requests (a phone sends a few at a time), each in a line of their own. */
export function tenantBulkheads(orgConcurrency: number): { organization: Bulkhead; device: Bulkhead } {
  return { organization: new Bulkhead(orgConcurrency, orgConcurrency * 16), device: new Bulkhead(8, 128) };
}

const LOG_EVERY_MS = 10_000;

/**
 * Counts each refusal by a fairness limit in /metrics, and says in the log which organization is
 * being limited: once per organization and limit every 10 s, so a flood does not flood the log.
 */
export function limitedRequests(ctx: Pick<AppContext, 'metrics' | 'log'>) {
  const lastLogged = new Map<string, number>();
  return (limit: 'anonymous' | 'organization' | 'device', principal?: { orgId: string }) => {
    ctx.metrics.limitedRequests.inc({ limit });
    if (!principal) return;
    const key = `${limit}:${principal.orgId}`;
    const now = Date.now();
    if (now - (lastLogged.get(key) ?? 0) < LOG_EVERY_MS) return;
    if (lastLogged.size > 10_000) lastLogged.clear();
    lastLogged.set(key, now);
    ctx.log.warn({ limit, orgId: principal.orgId }, 'requests refused: this organization is past its share of the server');
  };
}
