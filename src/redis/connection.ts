import { Redis } from 'ioredis';

export type { Redis };

/**
 * Request paths fail fast when Redis is down (no offline queue): a send answers 500 instead of
 * hanging, and nothing half-written is acknowledged. Workers use their own connections.
 */
export function createRedis(url: string, opts: { failFast?: boolean; name?: string } = {}): Redis {
  return new Redis(url, {
    connectionName: opts.name ?? 'hafatra',
    enableOfflineQueue: !opts.failFast,
    maxRetriesPerRequest: opts.failFast ? 1 : null,
    lazyConnect: false,
  });
}
