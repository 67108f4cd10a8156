import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { AppContext } from '../app/context.js';
import type { Config } from '../config/config.js';

/** Received SMS waiting to be read for mobile money; one job per batch of stored SMS. */
export const PARSE_QUEUE = 'mobile-money-parse';

export interface ParseJobData {
  incomingIds: string[];
}

/** BullMQ keys live under the deployment's prefix, hash-tagged so its scripts run on Redis Cluster. */
export const bullPrefix = (config: Config) => `${config.redisPrefix}:{bull}`;

/** Workers block on Redis: their connections retry forever instead of failing a command. */
export function bullConnection(config: Config, name: string): Redis {
  return new Redis(config.redisUrl, { maxRetriesPerRequest: null, connectionName: name });
}

// The producer shares the request path's fail-fast connection (closed with the context): an
// enqueue that fails is only logged, the worker's recovery pass finds the SMS in Postgres.
const producers = new WeakMap<AppContext, Queue>();

function producer(ctx: AppContext): Queue {
  let queue = producers.get(ctx);
  if (!queue) {
    queue = new Queue(PARSE_QUEUE, {
      connection: ctx.redis,
      prefix: bullPrefix(ctx.config),
      defaultJobOptions: {
        attempts: 5,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { age: 3600 },
        removeOnFail: { age: 86_400 },
      },
    });
    queue.on('error', (err) => ctx.log.warn({ err }, 'mobile-money parse queue error'));
    producers.set(ctx, queue);
  }
  return queue;
}

/**
 * Called after the SMS committed. The job id is the first SMS's id, so a retried enqueue of the
 * same batch adds nothing; parsing itself is idempotent besides.
 */
export async function enqueueParse(ctx: AppContext, incomingIds: string[]): Promise<void> {
  if (incomingIds.length === 0) return;
  try {
    await producer(ctx).add('parse', { incomingIds } satisfies ParseJobData, { jobId: incomingIds[0] });
  } catch (err) {
    ctx.log.warn({ err, incomingIds: incomingIds.length }, 'mobile-money parse not enqueued; the recovery pass will read these SMS');
  }
}
