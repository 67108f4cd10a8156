import type { Config } from '../config/config.js';
import { createDb } from '../db/pool.js';
import { createRedis } from '../redis/connection.js';
import { redisKeys } from '../redis/keys.js';
import { createLogger } from '../logging/logger.js';
import type { AppContext } from './context.js';

export function openContext(config: Config, name = 'hafatra'): AppContext {
  if (!config.databaseUrl || !config.redisUrl) throw new Error('DATABASE_URL and REDIS_URL are required here');
  return {
    config,
    log: createLogger(config.logLevel, name),
    db: createDb(config.databaseUrl, config.pgPoolSize),
    redis: createRedis(config.redisUrl, { failFast: true, name }),
    keys: redisKeys(config.redisPrefix),
  };
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await Promise.allSettled([ctx.db.end(), ctx.redis.quit()]);
}
