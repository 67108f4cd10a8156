import type { Config } from '../config/config.js';
import { createDb, createHotDb } from '../db/pool.js';
import { createRedis, redisReady } from '../redis/connection.js';
import { redisKeys } from '../redis/keys.js';
import { createLogger } from '../logging/logger.js';
import type { AppContext } from '../context/app-context.js';
import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { systemClock, type Clock } from '../time/clock.js';
import { DispatchQueue } from '../dispatch-queue/dispatch-queue.js';
import { ParseQueueProducer } from '../context/parse-queue.js';
import { SerialLane } from '../batching/serial-lane.js';
import { createMetrics } from '../infrastructure/metrics.js';
import { watchStores } from '../metrics/store-gauges.js';
import { RESENDS_PER_ROUND } from '../sending/auto-resend/after-reports.js';
import { isClusterUrl } from '../redis/redis-url.js';
import { MessageChanges } from '../messages/detail-cache/message-changes.js';

export function openContext(config: Config, name = 'hafatra', clock: Clock = systemClock): AppContext {
  if (!config.databaseUrl || !config.redisUrl) throw new Error('DATABASE_URL and REDIS_URL are required here');
  const log = createLogger(config.logLevel, name, config.logFormat);
  const poolOptions = {
    connectTimeoutMs: config.pgConnectTimeoutMs,
    statementTimeoutMs: config.pgStatementTimeoutMs,
    onConnectionError: (err: Error) => log.warn({ err: err.message }, 'postgres connection lost'),
  };
  const redis = createRedis(config.redisUrl, { failFast: true, name, onError: (err) => log.warn({ err: err.message }, 'redis connection error') });
  const keys = redisKeys(config.redisPrefix, { cluster: isClusterUrl(config.redisUrl) });
  const infra: Infrastructure = {
    config,
    log,
    db: createDb(config.databaseUrl, config.pgPoolSize, poolOptions),
    hotDb: createHotDb(config.databaseUrl, hotPoolSize(config.pgPoolSize), poolOptions),
    redis,
    keys,
    clock,
    metrics: createMetrics(),
  };
  watchStores(infra);
  const changes = new MessageChanges({ redis, keys, log, maxEntries: config.messageCacheEntries });
  return { ...infra, changes, dispatch: new DispatchQueue(infra, changes), parseQueue: new ParseQueueProducer(infra), resends: new SerialLane<string>(RESENDS_PER_ROUND) };
}

/** The hot pool takes half as many connections again: its statements (claims, status reports, lists) are batched or short. */
const hotPoolSize = (poolSize: number) => Math.max(2, Math.ceil(poolSize / 2));

/** Postgres answers and Redis is connected: a process starts serving only after this. */
export async function contextReady(ctx: AppContext): Promise<void> {
  await Promise.all([redisReady(ctx.redis), ctx.db.query('SELECT 1'), ctx.hotDb.query('SELECT 1')]);
}

export async function closeContext(ctx: AppContext): Promise<void> {
  // Resends under way finish on open connections (one not started is the sweep's).
  await ctx.resends.drained();
  await ctx.parseQueue.close();
  await Promise.allSettled([ctx.db.end(), ctx.hotDb.end(), ctx.redis.quit()]);
}
