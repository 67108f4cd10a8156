import type { Config } from '../config/config.js';
import type { Db, HotDb } from '../db/pool.js';
import type { Redis } from '../redis/connection.js';
import type { RedisKeys } from '../redis/keys.js';
import type { Logger } from '../logging/logger.js';

/** What every domain service is built from: one per process. */
export interface AppContext {
  config: Config;
  log: Logger;
  db: Db;
  /** The hot paths' prepared statements (claims, status reports, message lists): see createHotDb. */
  hotDb: HotDb;
  redis: Redis;
  keys: RedisKeys;
}
