import { inject } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createRedis, type Redis } from '../../src/redis/connection.js';
import { claimJobs, type ClaimJobsResult } from '../../src/redis/scripts/claim-jobs.js';
import { IGNORE_WINDOWS_LEAD_MS } from '../../src/dispatch-queue/entries.js';

/** A connection to the test Redis and a key prefix no other test uses. */
export function testRedis(): { redis: Redis; key: (name: string) => string } {
  const redis = createRedis(inject('redisUrl'), { name: 'lua-test' });
  const prefix = `lua${randomBytes(5).toString('hex')}:{o:test}`;
  return { redis, key: (name) => `${prefix}:${name}` };
}

/**
 * claimJobs for `dev_1` over the keys a Lua test names by suffix `s` (queue `q<s>`, its entries
 * `meta<s>`, the phone's state `state<s>`, the organization's prefix table `prefixes<s>`, …).
 */
export function claimOnTestKeys(redis: Redis, key: (name: string) => string, s: string, max: number, now: number, offNetWaitMs: number): Promise<ClaimJobsResult> {
  return claimJobs(
    redis,
    {
      deviceQueue: key(`dq${s}`),
      orgQueue: key(`q${s}`),
      queueMeta: key(`meta${s}`),
      deviceState: key(`state${s}`),
      claiming: key(`claiming${s}`),
      netPhones: key(`net${s}`),
      carrierPrefixes: key(`prefixes${s}`),
    },
    { deviceId: 'dev_1', max, now, pacingPrefix: key(`pace${s}:`), utcDay: '20270115', urgentScore: now - 3_600_000, offNetWaitMs, ignoreWindowsScore: now - IGNORE_WINDOWS_LEAD_MS / 2 },
  );
}
