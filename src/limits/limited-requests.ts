import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { Bulkhead } from './bulkhead.js';
import { pipelineByNode } from '../redis/pipeline-by-node.js';

/**
 * An organization's requests, and a phone's HTTP requests (a phone sends a few at a time), each in
 * a line of their own; organizations running at once share the Postgres pool's size between them.
 */
export function tenantBulkheads(orgConcurrency: number, poolSize: number): { organization: Bulkhead; device: Bulkhead } {
  return { organization: new Bulkhead(orgConcurrency, orgConcurrency * 16, undefined, poolSize), device: new Bulkhead(8, 128) };
}

export type Limit = 'anonymous' | 'organization' | 'device' | 'phone_frames';

const FLUSH_MS = 5000;
const KEEP_SECONDS = 3 * 86_400;

export interface LimitedRequests {
  (limit: Limit, principal?: { orgId: string }): void;
  /** Writes what is counted now (tests, and shutdown). */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Records each refusal by a fairness limit: counted in /metrics at once; for an organization,
 * added up in the process and written every 5 s (one pipeline, whatever the flood) to its day in
 * Redis, which the dashboard's overview shows its members, with one log line per organization
 * and limit naming who is being limited.
 */
export function limitedRequests(ctx: Pick<Infrastructure, 'metrics' | 'log' | 'redis' | 'keys'>): LimitedRequests {
  let pending = new Map<string, { orgId: string; limit: Limit; count: number }>();
  const flush = async () => {
    if (pending.size === 0) return;
    const batch = [...pending.values()];
    pending = new Map();
    const day = new Date().toISOString().slice(0, 10);
    for (const p of batch) ctx.log.warn({ limit: p.limit, orgId: p.orgId, refused: p.count }, 'requests refused: this organization is past its share of the server');
    const keyOf = (p: { orgId: string }) => ctx.keys.org(p.orgId).limited(day);
    await pipelineByNode(ctx.redis, batch, keyOf, (pipeline, p) => pipeline.hincrby(keyOf(p), p.limit, p.count).expire(keyOf(p), KEEP_SECONDS)).catch((err: unknown) =>
      ctx.log.debug({ err }, 'refusal counts not saved'),
    );
  };
  const timer = setInterval(() => void flush(), FLUSH_MS);
  timer.unref();
  const record = (limit: Limit, principal?: { orgId: string }) => {
    ctx.metrics.limitedRequests.inc({ limit });
    if (!principal) return;
    const key = `${limit}:${principal.orgId}`;
    const p = pending.get(key);
    if (p) p.count++;
    else if (pending.size < 10_000) pending.set(key, { orgId: principal.orgId, limit, count: 1 });
  };
  return Object.assign(record, {
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  });
}

/** Today's refusals of an organization by limit (the overview's `limited`). */
export async function limitedToday(ctx: Pick<Infrastructure, 'redis' | 'keys'>, orgId: string, now = new Date()): Promise<Record<string, number>> {
  const counts = await ctx.redis.hgetall(ctx.keys.org(orgId).limited(now.toISOString().slice(0, 10)));
  return Object.fromEntries(Object.entries(counts).map(([limit, n]) => [limit, Number(n)]));
}
