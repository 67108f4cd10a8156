import { Gauge } from 'prom-client';
import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { withinTimeout } from '../infrastructure/within-timeout.js';
import { countQueuedByOrg } from './sql/count-queued-by-org.js';

/** Several scrapers (or a fast scrape interval) share one count this long. */
export const SCRAPE_READ_CACHE_MS = 5_000;

/** Organizations given their own queue-depth series: the deepest, so the label set stays bounded. */
export const TOP_QUEUE_ORGANIZATIONS = 10;

interface QueueDepth {
  total: number;
  top: { orgId: string; n: number }[];
}

/**
 * Gauges read only when /metrics is scraped: the Postgres pools' connections (in memory) and the
 * messages waiting for a phone: in all, and for the TOP_QUEUE_ORGANIZATIONS deepest organizations.
 * Both come from one grouped count through the partial index on queued messages (an index-only
 * scan), not a ZCARD per organization queue, which would be 10,000 calls at 10,000 organizations.
 */
export function watchStores(infra: Pick<Infrastructure, 'db' | 'hotDb' | 'metrics'>): void {
  const on = { registers: [infra.metrics.registry] };
  const pools = { main: infra.db, hot: infra.hotDb };
  const poolGauge = (name: string, help: string, read: (p: Infrastructure['db']) => number) =>
    new Gauge({
      ...on,
      name,
      help,
      labelNames: ['pool'],
      collect() {
        for (const [pool, p] of Object.entries(pools)) this.set({ pool }, read(p));
      },
    });
  poolGauge('hafatra_pg_pool_waiting', 'Queries waiting for a Postgres connection, by pool (main, hot).', (p) => p.waitingCount);
  poolGauge('hafatra_pg_pool_connections', 'Postgres connections open, by pool (main, hot).', (p) => p.totalCount);
  poolGauge('hafatra_pg_pool_idle', 'Postgres connections open and idle, by pool (main, hot).', (p) => p.idleCount);

  // One read shared by the depth and its up gauge (collected in parallel) and by scrapes within the cache time.
  let cached: { at: number; value: Promise<QueueDepth | undefined> } | null = null;
  const readDepth = () => {
    if (!(cached && performance.now() - cached.at < SCRAPE_READ_CACHE_MS)) {
      const value = withinTimeout(async (): Promise<QueueDepth> => {
        const byOrg = await countQueuedByOrg(infra.db);
        return { total: byOrg.reduce((sum, r) => sum + r.n, 0), top: byOrg.sort((a, b) => b.n - a.n).slice(0, TOP_QUEUE_ORGANIZATIONS) };
      });
      cached = { at: performance.now(), value };
    }
    return cached.value;
  };
  new Gauge({
    ...on,
    name: 'hafatra_metrics_source_up',
    help: '1 when the last scrape-time read of this source answered in time, 0 when it did not (its gauges then hold their last value).',
    labelNames: ['source'],
    async collect() {
      this.set({ source: 'dispatch_queue_depth' }, (await readDepth()) === undefined ? 0 : 1);
    },
  });
  new Gauge({
    ...on,
    name: 'hafatra_dispatch_queue_depth',
    help: 'Messages queued for a phone, all organizations (a Postgres count, cached 5 s).',
    async collect() {
      const value = await readDepth();
      if (value !== undefined) this.set(value.total);
    },
  });
  new Gauge({
    ...on,
    name: 'hafatra_dispatch_queue_depth_top',
    help: `Messages queued for a phone, for each of the ${TOP_QUEUE_ORGANIZATIONS} organizations with the most (by organization id; cached 5 s).`,
    labelNames: ['org'],
    async collect() {
      const value = await readDepth();
      if (value === undefined) return;
      this.reset();
      for (const { orgId, n } of value.top) this.set({ org: orgId }, n);
    },
  });
}
