import type { Redis } from '../../redis/client.js';
import { acquireWebhookSlots } from '../../redis/scripts/acquire-webhook-slots.js';
import type { RedisKeys } from '../../redis/keys.js';

export interface EndpointSlots {
  /** How long a slot stays taken unless refreshed: a worker that dies blocks it this long at most. */
  holdMs: number;
  /** Asks one slot per lane, in order; returns how many of the first lanes got one. */
  acquire(endpointId: string, lanes: string[]): Promise<number>;
  /** Pushes a held slot's expiry back by holdMs (a lane that keeps sending). */
  refresh(endpointId: string, lane: string): Promise<void>;
  release(endpointId: string, lane: string): Promise<void>;
}

/**
 * At most `limit` deliveries in flight per endpoint, across every worker process: a slow or
 * hanging receiver holds only its own slots (lua/acquireWebhookSlots-1.lua).
 */
export function endpointSlots(redis: Redis, keys: RedisKeys, limit: number, holdMs: number): EndpointSlots {
  const key = (endpointId: string) => keys.webhookSlots(endpointId);
  return {
    holdMs,
    async acquire(endpointId, lanes) {
      const now = Date.now();
      return acquireWebhookSlots(redis, { slots: key(endpointId) }, { now, limit, expiresAt: now + holdMs, setTtlMs: holdMs * 2, lanes });
    },
    async refresh(endpointId, lane) {
      await redis
        .multi()
        .zadd(key(endpointId), 'XX', Date.now() + holdMs, lane)
        .pexpire(key(endpointId), holdMs * 2)
        .exec();
    },
    async release(endpointId, lane) {
      // A failed release only keeps the slot until it expires; the attempts' results matter more.
      await redis.zrem(key(endpointId), lane).catch(() => undefined);
    },
  };
}
