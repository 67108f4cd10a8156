import { Cluster, Redis as SingleRedis, type RedisOptions } from 'ioredis';
import { defineScripts } from './scripts/lua-scripts.js';
import { parseRedisUrl } from './redis-url.js';
import type { Redis } from './client.js';

export { isCluster, type Redis } from './client.js';

/** Far above any command Hafatra sends (Lua scripts run in microseconds to milliseconds). */
const COMMAND_TIMEOUT_MS = 10_000;

interface ConnectionOptions {
  failFast?: boolean;
  name?: string;
  onError?: (err: Error) => void;
  /** A connection that subscribes to shard channels (SSUBSCRIBE): on a cluster, one per shard. */
  subscriber?: boolean;
}

/**
 * Request paths fail fast when Redis is down (no offline queue): a send answers 500 instead of
 * hanging, and nothing half-written is acknowledged. Workers use their own connections.
 * A Redis that accepts the connection but stops answering (stalled, network cut) would still
 * hold every request forever: fail-fast commands give up after COMMAND_TIMEOUT_MS.
 * Every Lua script is defined on the connection here, before its first command.
 * A `redis+cluster://` URL opens a Redis Cluster client (src/redis/redis-url.ts).
 */
export function createRedis(url: string, opts: ConnectionOptions = {}): Redis {
  const options: RedisOptions = {
    connectionName: opts.name ?? 'hafatra',
    enableOfflineQueue: !opts.failFast,
    maxRetriesPerRequest: opts.failFast ? 1 : null,
    ...(opts.failFast ? { commandTimeout: COMMAND_TIMEOUT_MS } : {}),
    lazyConnect: false,
  };
  const redis = open(url, options, opts.subscriber ?? false);
  defineScripts(redis);
  // ioredis reconnects by itself; an unhandled 'error' event would only print noise.
  redis.on('error', opts.onError ?? (() => undefined));
  return redis;
}

/** BullMQ wants connections that retry forever (maxRetriesPerRequest null); its workers keep trying. */
export function createBullConnection(url: string, name: string): Redis {
  return createRedis(url, { name });
}

function open(url: string, options: RedisOptions, subscriber: boolean): Redis {
  const target = parseRedisUrl(url);
  if (target.kind === 'single') return new SingleRedis(url, options);
  const { enableOfflineQueue, ...perNode } = options;
  return new Cluster(target.nodes, {
    redisOptions: { ...perNode, ...target.auth, ...(target.tls ? { tls: {} } : {}) },
    enableOfflineQueue,
    // Every read goes to the master: a replica may lag behind the script that just wrote.
    scaleReads: 'master',
    shardedSubscribers: subscriber,
    // A failover takes the cluster a few seconds (cluster-node-timeout and the vote); commands
    // sent meanwhile wait for the new master rather than fail at once.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 300,
    slotsRefreshTimeout: 2000,
  });
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
