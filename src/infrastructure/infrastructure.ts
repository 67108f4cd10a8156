import type { Config } from '../config/config.js';
import type { Db, HotDb } from '../db/pool.js';
import type { Redis } from '../redis/connection.js';
import type { RedisKeys } from '../redis/keys.js';
import type { Logger } from '../logging/logger.js';
import type { Clock } from '../time/clock.js';
import type { Metrics } from './metrics.js';

/** A process's settings and connections: what the services it owns are built from. */
export interface Infrastructure {
  config: Config;
  log: Logger;
  db: Db;
  /** The hot paths' prepared statements (claims, status reports, message lists): see createHotDb. */
  hotDb: HotDb;
  redis: Redis;
  keys: RedisKeys;
  clock: Clock;
  /** This process's Prometheus instruments (GET /metrics). */
  metrics: Metrics;
}
