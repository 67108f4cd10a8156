import type { Queue } from 'bullmq';
import { createBullConnection, type Redis } from '../redis/connection.js';
import type { Infrastructure } from '../infrastructure/infrastructure.js';
import type { Config } from '../config/config.js';
import { loadBullmq } from '../redis/load-bullmq.js';

/** Received SMS waiting to be read for mobile money; one job per batch of stored SMS. */
export const PARSE_QUEUE = 'mobile-money-parse';

export interface ParseJobData {
  incomingIds: string[];
}

/** Workers block on Redis: their connections retry forever instead of failing a command. */
export function bullConnection(config: Config, name: string): Redis {
  return createBullConnection(config.redisUrl, name);
}

const ENQUEUE_TIMEOUT_MS = 2000;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`enqueue took longer than ${ms} ms`)), ms);
  });
  work.catch(() => undefined);
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The API process's side of the parse queue: one per process (app/runtime.ts makes it). It
 * shares the request path's fail-fast connection: an enqueue that fails is only logged, the
 * worker's recovery pass finds the SMS in Postgres.
 */
export class ParseQueueProducer {
  private queue: Promise<Queue> | null = null;

  constructor(private readonly ctx: Infrastructure) {}

  /**
   * Called after the SMS committed. The job id is the first SMS's id, so a retried enqueue of the
   * same batch adds nothing; parsing itself is idempotent besides.
   */
  async enqueue(incomingIds: string[]): Promise<void> {
    const { ctx } = this;
    if (incomingIds.length === 0) return;
    if (ctx.redis.status !== 'ready') {
      ctx.log.warn({ incomingIds: incomingIds.length }, 'Redis not ready: mobile-money parse left to the recovery pass');
      return;
    }
    const opening = (this.queue ??= this.open());
    try {
      // BullMQ waits for a lost connection to come back; a phone's request must not wait with it.
      const added = opening.then((queue) => queue.add('parse', { incomingIds } satisfies ParseJobData, { jobId: incomingIds[0] }));
      await withTimeout(added, ENQUEUE_TIMEOUT_MS);
    } catch (err) {
      // A queue whose first connection attempt failed stays failed: the next call builds a new one.
      if (this.queue === opening) this.queue = null;
      void opening.then((queue) => queue.close()).catch(() => undefined);
      ctx.log.warn({ err, incomingIds: incomingIds.length }, 'mobile-money parse not enqueued; the recovery pass will read these SMS');
    }
  }

  async close(): Promise<void> {
    const opening = this.queue;
    this.queue = null;
    await opening?.then((queue) => queue.close()).catch(() => undefined);
  }

  /** BullMQ is loaded with the process's first parse job (src/redis/load-bullmq.ts). */
  private async open(): Promise<Queue> {
    const { Queue } = await loadBullmq();
    const queue = new Queue(PARSE_QUEUE, {
      connection: this.ctx.redis,
      prefix: this.ctx.keys.bullPrefix.mobileMoney(),
      defaultJobOptions: {
        attempts: 5,
        backoff: { type: 'exponential', delay: 1000 },
        removeOnComplete: { age: 3600 },
        removeOnFail: { age: 86_400 },
      },
    });
    queue.on('error', (err) => this.ctx.log.warn({ err }, 'mobile-money parse queue error'));
    return queue;
  }
}
