import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { AppContext } from '../app/context.js';

export const DELIVERY_QUEUE = 'webhook-deliveries';
const ADD_BULK_CHUNK = 1000;

/** A job names one webhook_deliveries row; the row, not the job, holds the truth. */
export interface DeliveryJobData {
  deliveryId: string;
  endpointId: string;
}

export interface DeliveryToQueue {
  id: string;
  endpointId: string;
  /** Not before this time; null or past: at once. */
  notBefore: Date | null;
}

export type DeliveryQueue = Queue<DeliveryJobData>;

/** BullMQ wants connections that retry forever (maxRetriesPerRequest null); workers keep trying. */
export function bullConnection(ctx: AppContext, name: string): Redis {
  return new Redis(ctx.config.redisUrl, { maxRetriesPerRequest: null, connectionName: name });
}

export function openDeliveryQueue(ctx: AppContext, connection: Redis): DeliveryQueue {
  return new Queue<DeliveryJobData>(DELIVERY_QUEUE, { connection, prefix: ctx.config.redisPrefix });
}

/**
 * The job id is the delivery id, so adding a delivery that is already queued (a relay crash, a
 * recovery pass) is a no-op. Finished jobs are removed: by then the row is delivered or dead and
 * nothing adds it again.
 */
export async function enqueueDeliveries(queue: DeliveryQueue, deliveries: DeliveryToQueue[]): Promise<void> {
  const now = Date.now();
  for (let i = 0; i < deliveries.length; i += ADD_BULK_CHUNK) {
    await queue.addBulk(deliveries.slice(i, i + ADD_BULK_CHUNK).map((d) => ({
      name: 'deliver',
      data: { deliveryId: d.id, endpointId: d.endpointId },
      opts: {
        jobId: d.id,
        delay: d.notBefore ? Math.max(0, d.notBefore.getTime() - now) : 0,
        removeOnComplete: true,
        removeOnFail: true,
      },
    })));
  }
}
