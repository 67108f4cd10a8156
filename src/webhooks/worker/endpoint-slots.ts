import type { Redis } from 'ioredis';

// A sorted set per endpoint: members are the deliveries in flight, scores the time their slot
// expires. A worker that dies holding slots only blocks them until that time.
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

interface SlotCommands {
  hafatraWebhookSlot(key: string, now: number, limit: number, expiresAt: number, member: string, ttlMs: number): Promise<number>;
}

export interface EndpointSlots {
  /** True when the delivery may go now; false when the endpoint has `limit` deliveries in flight. */
  acquire(endpointId: string, deliveryId: string): Promise<boolean>;
  release(endpointId: string, deliveryId: string): Promise<void>;
}

/**
 * At most `limit` deliveries in flight per endpoint, across every worker process: a slow or
 * hanging receiver holds only its own slots, never the worker's whole concurrency.
 */
export function endpointSlots(redis: Redis, prefix: string, limit: number, holdMs: number): EndpointSlots {
  redis.defineCommand('hafatraWebhookSlot', { numberOfKeys: 1, lua: ACQUIRE });
  const commands = redis as unknown as SlotCommands;
  const key = (endpointId: string) => `${prefix}:webhook-slots:${endpointId}`;
  return {
    async acquire(endpointId, deliveryId) {
      const now = Date.now();
      return (await commands.hafatraWebhookSlot(key(endpointId), now, limit, now + holdMs, deliveryId, holdMs * 2)) === 1;
    },
    async release(endpointId, deliveryId) {
      // A failed release only keeps the slot until it expires; the attempt's result matters more.
      await redis.zrem(key(endpointId), deliveryId).catch(() => undefined);
    },
  };
}
