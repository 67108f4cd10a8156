import type { Cluster, Redis as SingleRedis } from 'ioredis';

/** A connection to one Redis or to a Redis Cluster (src/redis/connection.ts opens both): the same commands. */
export type Redis = SingleRedis | Cluster;

export function isCluster(redis: Redis): redis is Cluster {
  return redis.isCluster;
}
