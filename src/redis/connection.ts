import { Redis } from 'ioredis';
import { defineScripts } from './scripts/lua-scripts.js';

export type { Redis };

/** Far above any command Hafatra sends (Lua scripts run in microseconds to milliseconds). */
const COMMAND_TIMEOUT_MS = 10_000;

/**
 * Request paths fail fast when Redis is down (no offline queue): a send answers 500 instead of
 * hanging, and nothing half-written is acknowledged. Workers use their own connections.
 * A Redis that accepts the connection but stops answering (stalled, network cut) would still
 * hold every request forever: fail-fast commands give up after COMMAND_TIMEOUT_MS.
 * Every Lua script is defined on the connection here, before its first command.
 */
export function createRedis(url: string, opts: { failFast?: boolean; name?: string; onError?: (err: Error) => void } = {}): Redis {
  const redis = new Redis(url, {
    connectionName: opts.name ?? 'hafatra',
    enableOfflineQueue: !opts.failFast,
    maxRetriesPerRequest: opts.failFast ? 1 : null,
    ...(opts.failFast ? { commandTimeout: COMMAND_TIMEOUT_MS } : {}),
    lazyConnect: false,
  });
  defineScripts(redis);
  // ioredis reconnects by itself; an unhandled 'error' event would only print noise.
  redis.on('error', opts.onError ?? (() => undefined));
  return redis;
}

/** Resolves once the connection can take commands (a fail-fast connection refuses them before). */
export function redisReady(redis: Redis, timeoutMs = 15_000): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis not ready after ${timeoutMs} ms`)), timeoutMs);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
