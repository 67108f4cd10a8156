import { inTransaction } from '../../src/db/pool.js';
import { bullConnection, openDeliveryQueue, type DeliveryQueue } from '../../src/webhooks/queue.js';
import { recordEvents, type EventType } from '../../src/events/record-events.js';
import { startWebhookWorkers, type WebhookWorkerOptions, type WebhookWorkers } from '../../src/webhooks/workers.js';
import type { Config } from '../../src/config/config.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver.js';

/** An API, its webhook workers and a real HTTPS receiver they may deliver to. */
export interface WebhookRig {
  app: TestApp;
  workers: WebhookWorkers;
  receiver: HttpsReceiver;
  close(): Promise<void>;
}

export const LOCAL_HOSTS = ['localhost', '127.0.0.1'];

export async function startWebhookRig(config: Partial<Config> = {}, workerOptions: WebhookWorkerOptions = {}): Promise<WebhookRig> {
  const receiver = await startHttpsReceiver();
  const app = await startTestApp({ webhookAllowHosts: LOCAL_HOSTS, webhookScheduleSeconds: [0, 1, 1], reconcileIntervalMs: 200, ...config });
  const workers = await startWebhookWorkers(app.ctx, { ca: receiver.ca, ...workerOptions });
  return {
    app,
    workers,
    receiver,
    async close() {
      await receiver.close();
      await workers.close();
      await app.close();
    },
  };
}

export async function createEndpoint(app: TestApp, key: string, body: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const res = await app.request('POST', '/v1/webhooks', { key, body });
  if (res.status !== 201) throw new Error(`endpoint not created: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.endpoint.id, secret: res.body.secret };
}

/** Writes events through the outbox, as a change of the organization would. */
export async function emitEvents(
  app: TestApp,
  orgId: string,
  type: EventType,
  count: number,
  data: (i: number) => unknown = (i) => ({ id: `msg_test${i}`, status: type.split('.')[1] }),
): Promise<number> {
  return inTransaction(app.ctx.db, (tx) =>
    recordEvents(
      tx,
      orgId,
      Array.from({ length: count }, (_, i) => ({ type, data: () => data(i) })),
    ),
  );
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function deliveries(app: TestApp, key: string, endpointId: string): Promise<any[]> {
  const res = await app.request('GET', `/v1/webhooks/${endpointId}/deliveries?limit=100`, { key });
  if (res.status !== 200) throw new Error(`deliveries: ${res.status}`);
  return res.body.deliveries;
}

/** An API and the delivery queue, without workers: tests that relay, claim and record by hand. */
export async function startAppWithQueue(name: string): Promise<{ app: TestApp; queue: DeliveryQueue; close(): Promise<void> }> {
  const app = await startTestApp({ webhookAllowHosts: LOCAL_HOSTS });
  const connection = bullConnection(app.ctx, name);
  const queue = await openDeliveryQueue(app.ctx, connection);
  return {
    app,
    queue,
    async close() {
      await queue.close();
      await connection.quit();
      await app.close();
    },
  };
}

/**
 * Waits until the delivery queue holds no job of this endpoint, in any state a job can still
 * attempt from: from then on no request for it can come, so "nothing more was sent" is proved by
 * an event rather than by a pause long enough on a quiet machine.
 */
export async function waitForNoJobOf(app: TestApp, endpointId: string, timeoutMs = 15_000): Promise<void> {
  const connection = bullConnection(app.ctx, 'test-no-job');
  const queue = await openDeliveryQueue(app.ctx, connection);
  try {
    await waitFor(
      `no delivery job left for ${endpointId}`,
      async () => {
        const jobs = await queue.getJobs(['waiting', 'delayed', 'prioritized', 'active', 'waiting-children']);
        return !jobs.some((j) => j?.data.endpointId === endpointId);
      },
      timeoutMs,
    );
  } finally {
    await queue.close();
    await connection.quit();
  }
}
