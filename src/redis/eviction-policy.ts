import type { Logger } from '../logging/logger.js';
import { isCluster, redisReady, type Redis } from './connection.js';

export type EvictionPolicyCheck = 'noeviction' | 'evicts' | 'unchecked';

/**
 * A Redis allowed to evict keys under memory pressure drops them without an error, and evicting
 * a queue or a counter would lose work or let limits be passed (README: Redis). The embedded
 * Redis runs with noeviction; an external one is checked at start. Managed services often
 * disable CONFIG: then the check is only reported as not done.
 */
export async function checkEvictionPolicy(redis: Redis, log: Pick<Logger, 'warn' | 'info'>): Promise<EvictionPolicyCheck> {
  try {
    await redisReady(redis);
  } catch (err) {
    log.info({ err: (err as Error).message }, 'Redis maxmemory-policy could not be checked (not ready): make sure it is noeviction, or Redis may evict queue keys');
    return 'unchecked';
  }
  // On a cluster every master holds its share of the queues: each is asked.
  const nodes = isCluster(redis) ? redis.nodes('master') : [redis];
  const checks = await Promise.all(nodes.map((node) => checkOne(node, log)));
  if (checks.includes('evicts')) return 'evicts';
  return checks.includes('unchecked') ? 'unchecked' : 'noeviction';
}

async function checkOne(redis: Redis, log: Pick<Logger, 'warn' | 'info'>): Promise<EvictionPolicyCheck> {
  let reply: unknown;
  try {
    reply = await redis.config('GET', 'maxmemory-policy');
  } catch (err) {
    log.info({ err: (err as Error).message }, 'Redis maxmemory-policy could not be checked (CONFIG GET refused): make sure it is noeviction, or Redis may evict queue keys');
    return 'unchecked';
  }
  const policy = Array.isArray(reply) ? (reply[1] as unknown) : undefined;
  if (typeof policy !== 'string') {
    log.info({ reply }, 'Redis maxmemory-policy could not be checked (CONFIG GET did not answer it): make sure it is noeviction, or Redis may evict queue keys');
    return 'unchecked';
  }
  if (policy === 'noeviction') return 'noeviction';
  log.warn(
    { maxmemoryPolicy: policy },
    `Redis maxmemory-policy is ${policy}, not noeviction: Redis may evict queue keys (queued messages, send reservations, idempotency records) when it runs out of memory. Set maxmemory-policy noeviction.`,
  );
  return 'evicts';
}
