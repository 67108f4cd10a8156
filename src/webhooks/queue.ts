import type { Queue } from 'bullmq';
import type { AppContext } from '../context/app-context.js';
import { createBullConnection, type Redis } from '../redis/connection.js';
import { loadBullmq } from '../redis/load-bullmq.js';

export const DELIVERY_QUEUE = 'webhook-deliveries';
/** Deliveries per job: one endpoint's, due at about the same time. */
export const DELIVERIES_PER_JOB = 50;
const ADD_BULK_CHUNK = 1000;

/**
 * A job names up to DELIVERIES_PER_JOB webhook_deliveries rows of one endpoint; the rows, not the
 * job, hold the truth. A job that holds a delivery already claimed, finished or not yet due
 * leaves it alone (src/webhooks/worker/claim-deliveries.ts), so a delivery in two jobs is still
 * attempted once.
 */
export interface DeliveryJobData {
  endpointId: string;
  deliveryIds: string[];
}

export interface DeliveryToQueue {
  id: string;
  endpointId: string;
  /** Not before this time; null or past: at once. */
  notBefore: Date | null;
}

export type DeliveryQueue = Queue<DeliveryJobData>;

/**
 * BullMQ wants connections that retry forever (maxRetriesPerRequest null); workers keep trying.
 * Hafatra's scripts are defined on them too: the delivery worker takes endpoint slots through one.
 */
export function bullConnection(ctx: AppContext, name: string): Redis {
  return createBullConnection(ctx.config.redisUrl, name);
}

/** BullMQ is loaded with the first queue a process opens (src/redis/load-bullmq.ts). */
export async function openDeliveryQueue(ctx: AppContext, connection: Redis): Promise<DeliveryQueue> {
  const { Queue } = await loadBullmq();
  return new Queue<DeliveryJobData>(DELIVERY_QUEUE, { connection, prefix: ctx.keys.bullPrefix.webhooks() });
}

interface JobToAdd {
  data: DeliveryJobData;
  delay: number;
  jobId?: string;
}

/**
 * Groups deliveries into jobs by endpoint and due second: a job's time is the latest of its
 * deliveries' (rounded up to the second), so every delivery in it is due when it runs. Named jobs
 * (for the recovery pass, which may offer the same overdue deliveries again and again) take their
 * first and last delivery ids as job id: offering the same group while its job is still in
 * BullMQ adds nothing.
 */
export function groupIntoJobs(deliveries: DeliveryToQueue[], opts: { now?: number; named?: boolean } = {}): JobToAdd[] {
  const now = opts.now ?? Date.now();
  const groups = new Map<string, { endpointId: string; at: number; ids: string[] }>();
  const jobs: JobToAdd[] = [];
  const close = (g: { endpointId: string; at: number; ids: string[] }) =>
    jobs.push({
      data: { endpointId: g.endpointId, deliveryIds: g.ids },
      delay: Math.max(0, g.at - now),
      jobId: opts.named ? `${g.ids[0]}..${g.ids[g.ids.length - 1]}` : undefined,
    });
  for (const d of deliveries) {
    const due = d.notBefore?.getTime() ?? 0;
    const at = due <= now ? 0 : Math.ceil(due / 1000) * 1000;
    const key = `${d.endpointId}@${at}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { endpointId: d.endpointId, at, ids: [] }));
    group.ids.push(d.id);
    if (group.ids.length === DELIVERIES_PER_JOB) {
      close(group);
      groups.delete(key);
    }
  }
  for (const g of groups.values()) close(g);
  return jobs;
}

/** Finished jobs are removed: by then their rows are delivered, dead or queued again by a newer job. */
export async function addDeliveryJobs(queue: DeliveryQueue, jobs: JobToAdd[]): Promise<void> {
  for (let i = 0; i < jobs.length; i += ADD_BULK_CHUNK) {
    await queue.addBulk(
      jobs.slice(i, i + ADD_BULK_CHUNK).map((j) => ({
        name: 'deliver',
        data: j.data,
        opts: { jobId: j.jobId, delay: j.delay, removeOnComplete: true, removeOnFail: true },
      })),
    );
  }
}

export async function enqueueDeliveries(queue: DeliveryQueue, deliveries: DeliveryToQueue[]): Promise<void> {
  await addDeliveryJobs(queue, groupIntoJobs(deliveries));
}
