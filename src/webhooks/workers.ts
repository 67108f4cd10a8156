import { DelayedError, Worker } from 'bullmq';
import type { AppContext } from '../context/app-context.js';
import { every } from '../periodic/every.js';
import { inHotTransaction } from '../db/pool.js';
import { closeWebhookConnections } from './delivery/connection-pools.js';
import { bullConnection, DELIVERY_QUEUE, enqueueDeliveries, openDeliveryQueue, type DeliveryJobData } from './queue.js';
import { relayAll } from './relay.js';
import { deliveryRecovery } from './recovery.js';
import { cachedLookup } from './delivery/dns-cache.js';
import { TickBatcher } from '../batching/tick-batcher.js';
import { claimDeliveries } from './worker/claim-deliveries.js';
import { recordAttempts } from './worker/record-attempts.js';
import { endpointSlots } from './worker/endpoint-slots.js';
import { deliverer } from './worker/deliver.js';

/** Jobs (each up to DELIVERIES_PER_JOB deliveries of one endpoint) in progress in this process. */
export const DEFAULT_DELIVERY_CONCURRENCY = 100;
export const DEFAULT_PER_ENDPOINT_CONCURRENCY = 50;
/**
 * How often the outbox relay looks for events: the delay a webhook may wait before its delivery
 * is queued. An idle look is one index probe (40 per second per worker process).
 */
const RELAY_INTERVAL_MS = 25;

export interface WebhookWorkerOptions {
  /** Jobs in progress in this process; each holds up to DELIVERIES_PER_JOB deliveries of one endpoint. */
  concurrency?: number;
  /** Deliveries in flight per endpoint, across all processes. */
  perEndpointConcurrency?: number;
  /** Extra trusted CA certificates (PEM) for receivers: tests give their local receiver's. */
  ca?: string | string[];
}

export interface WebhookWorkers {
  close(): Promise<void>;
  /** Runs the outbox relay now (tests; it also runs every RELAY_INTERVAL_MS). */
  relayNow(): Promise<void>;
  /** Runs the recovery pass now (tests; it also runs every reconcileIntervalMs). */
  recoverNow(): Promise<void>;
}

/**
 * The webhook side of a worker process: the outbox relay (events → deliveries → BullMQ), the
 * BullMQ delivery worker, and the recovery pass that queues again what Redis lost.
 */
export async function startWebhookWorkers(ctx: AppContext, opts: WebhookWorkerOptions = {}): Promise<WebhookWorkers> {
  const queueConnection = bullConnection(ctx, 'hafatra-webhook-queue');
  const queue = await openDeliveryQueue(ctx, queueConnection);
  const perEndpointConcurrency = opts.perEndpointConcurrency ?? DEFAULT_PER_ENDPOINT_CONCURRENCY;
  const deliver = deliverer({
    ctx,
    ca: opts.ca,
    slots: endpointSlots(queueConnection, ctx.keys, perEndpointConcurrency, ctx.config.webhookTimeoutMs + 5000),
    perEndpointConcurrency,
    lookup: cachedLookup(),
    claim: groupCommit((claims) => claimDeliveries(ctx.hotDb, claims), 4),
    requeue: (deliveries) => enqueueDeliveries(queue, deliveries),
    record: groupCommit((records) => inHotTransaction(ctx.hotDb, (tx) => recordAttempts(tx, records, ctx.config.webhookDisableAfterSeconds)), 1),
  });
  // One HGETALL-sized read of BullMQ's lists, made only when /metrics is scraped.
  const readBacklog = () => queue.getJobCounts('waiting', 'delayed', 'active', 'prioritized');
  ctx.metrics.sources.webhookBacklog = readBacklog;
  const workerConnection = bullConnection(ctx, 'hafatra-webhook-worker');
  const worker = new Worker<DeliveryJobData>(
    DELIVERY_QUEUE,
    async (job, token) => {
      const next = await deliver(job.data);
      if (next.kind === 'done') return;
      await job.moveToDelayed(next.at, token);
      throw new DelayedError();
    },
    { connection: workerConnection, prefix: ctx.keys.bullPrefix.webhooks(), concurrency: opts.concurrency ?? DEFAULT_DELIVERY_CONCURRENCY },
  );
  worker.on('error', (err) => ctx.log.error({ err }, 'webhook worker error'));
  worker.on('failed', (job, err) => ctx.log.error({ err, endpointId: job?.data.endpointId, deliveries: job?.data.deliveryIds.length }, 'webhook delivery job failed'));
  const relay = every(RELAY_INTERVAL_MS, 'webhook-relay', ctx, () => relayAll(ctx, queue));
  const recovery = every(ctx.config.reconcileIntervalMs, 'webhook-recovery', ctx, deliveryRecovery(ctx, queue, queueConnection));
  await recovery.runNow();
  return {
    relayNow: relay.runNow,
    recoverNow: recovery.runNow,
    async close() {
      await Promise.allSettled([relay.stop(), recovery.stop()]);
      if (ctx.metrics.sources.webhookBacklog === readBacklog) ctx.metrics.sources.webhookBacklog = undefined;
      await worker.close();
      await queue.close();
      await Promise.allSettled([workerConnection.quit(), queueConnection.quit()]);
      closeWebhookConnections();
    },
  };
}

/**
 * The delivery worker's writes: what jobs ask for while earlier writes run goes in the next one,
 * so one Postgres round trip serves many deliveries; at low load a call is written at once.
 */
function groupCommit<I, O>(run: (items: I[]) => Promise<O[]>, maxInFlight: number): (item: I) => Promise<O> {
  const batcher = new TickBatcher(run, 500, maxInFlight, queueMicrotask);
  return (item) => batcher.load(item);
}
