import { afterAll, beforeAll, expect, it } from 'vitest';
import { deletePrefixKeys } from '../support/redis.js';
import { addDeliveryJobs, bullConnection, groupIntoJobs, openDeliveryQueue, type DeliveryQueue } from '../../src/webhooks/queue.js';
import { relayAll } from '../../src/webhooks/relay.js';
import { startWebhookWorkers } from '../../src/webhooks/workers.js';
import { createEndpoint, deliveries, emitEvents, startWebhookRig, waitFor, waitForNoJobOf, type WebhookRig } from './support.js';

let rig: WebhookRig;

beforeAll(async () => {
  rig = await startWebhookRig({ reconcileGraceMs: 500 });
});
afterAll(() => rig.close());

/** What losing Redis looks like to this deployment: every key under its prefix gone. */
/** Stops the workers, then relays `count` events of a new endpoint on `path` with no worker to take them. */
async function relayedWithoutWorker(path: string, count: number, more: (queue: DeliveryQueue, endpointId: string) => Promise<void>) {
  const { app, receiver } = rig;
  receiver.respondWith(() => ({ status: 200 }));
  await rig.workers.close();
  const { org, key } = await app.createOrg();
  const { id } = await createEndpoint(app, key, { url: `${receiver.url}${path}`, eventTypes: ['message.sent'] });
  await emitEvents(app, org.id, 'message.sent', count);
  const connection = bullConnection(app.ctx, 'test-relay');
  const queue = await openDeliveryQueue(app.ctx, connection);
  await relayAll(app.ctx, queue);
  await more(queue, id);
  await queue.close();
  await connection.quit();
  return { key, id };
}

const eventIdsOf = (requests: WebhookRig['receiver']['requests'], path: string) =>
  requests.filter((r) => r.path === path && r.headers['hafatra-event-id']).map((r) => String(r.headers['hafatra-event-id']));

it('delivers retrying deliveries once each after Redis lost their jobs', async () => {
  const { app, receiver } = rig;
  let healthy = false;
  // What each attempt was answered, by event: a retry due while Redis is being emptied (1 s after
  // the first failure) may still fail once more, and that is an attempt, not a duplicate.
  const answered = new Map<string, number[]>();
  receiver.respondWith((request) => {
    const status = healthy ? 200 : 503;
    const eventId = String(request.headers['hafatra-event-id']);
    answered.set(eventId, [...(answered.get(eventId) ?? []), status]);
    return { status };
  });
  const { org, key } = await app.createOrg();
  const { id } = await createEndpoint(app, key, { url: `${receiver.url}retrying`, eventTypes: ['message.sent'] });
  await emitEvents(app, org.id, 'message.sent', 20);
  await waitFor('20 retrying deliveries', async () => (await deliveries(app, key, id)).filter((d) => d.status === 'retrying').length === 20);
  expect(await deletePrefixKeys(app.ctx.redis, app.ctx.config.redisPrefix)).toBeGreaterThan(0);
  healthy = true;
  await waitFor('20 delivered', async () => (await deliveries(app, key, id)).filter((d) => d.status === 'delivered').length === 20);
  await rig.workers.recoverNow();
  await waitForNoJobOf(app, id);
  expect(answered.size).toBe(20);
  for (const statuses of answered.values()) {
    // Failed first, then delivered exactly once: never attempted again after its success.
    expect(statuses[0]).toBe(503);
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  }
  // The delivery log counts every attempt the receiver saw.
  const attempts = new Map((await deliveries(app, key, id)).map((d) => [d.eventId as string, d.attempts as number]));
  for (const [eventId, statuses] of answered) expect(attempts.get(eventId)).toBe(statuses.length);
});

it('delivers pending deliveries whose jobs were lost before any attempt', async () => {
  const { app, receiver } = rig;
  // The relay runs with no worker, then Redis loses everything.
  const { key, id } = await relayedWithoutWorker('pending', 50, async () => undefined);
  expect((await deliveries(app, key, id)).filter((d) => d.status === 'pending')).toHaveLength(50);
  await deletePrefixKeys(app.ctx.redis, app.ctx.config.redisPrefix);

  rig.workers = await startWebhookWorkers(app.ctx, { ca: receiver.ca });
  await waitFor('50 delivered', async () => (await deliveries(app, key, id)).filter((d) => d.status === 'delivered').length === 50);
  await waitForNoJobOf(app, id);
  const ids = eventIdsOf(receiver.requests, '/pending');
  expect(ids).toHaveLength(50);
  expect(new Set(ids).size).toBe(50);
});

it("attempts a delivery held by two jobs once (the relay's and the recovery pass's)", async () => {
  const { app, receiver } = rig;
  const { key, id } = await relayedWithoutWorker('twice', 60, async (queue, endpointId) => {
    const { rows } = await app.ctx.db.query('SELECT id, endpoint_id AS "endpointId", next_attempt_at AS "notBefore" FROM webhook_deliveries WHERE endpoint_id = $1', [endpointId]);
    await addDeliveryJobs(queue, groupIntoJobs(rows, { named: true }));
    // The recovery pass's two jobs and the relay's two. Counted for this endpoint only: jobs the
    // earlier tests' recovery passes offered (overdue while waiting in a lane) may still be queued.
    const jobs = await queue.getJobs(['waiting', 'delayed', 'prioritized', 'active']);
    expect(jobs.filter((j) => j.data.endpointId === endpointId)).toHaveLength(4);
  });

  rig.workers = await startWebhookWorkers(app.ctx, { ca: receiver.ca });
  await waitFor('60 delivered', async () => (await app.ctx.db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'delivered'`, [id])).rows[0].n === 60);
  await waitForNoJobOf(app, id);
  const ids = eventIdsOf(receiver.requests, '/twice');
  expect(ids).toHaveLength(60);
  expect(new Set(ids).size).toBe(60);
  for (const d of await deliveries(app, key, id)) expect(d.attempts).toBe(1);
});

it('offers again deliveries overdue past the grace whose jobs are gone while Redis kept its data', async () => {
  const { app, receiver } = rig;
  // As if the relay died between its commit and its enqueue: the rows exist, their jobs do not.
  const { key, id } = await relayedWithoutWorker('overdue', 70, (queue) => queue.obliterate({ force: true }));
  expect(await app.ctx.redis.exists(app.ctx.keys.webhooksQueued())).toBe(1);
  rig.workers = await startWebhookWorkers(app.ctx, { ca: receiver.ca });
  await waitFor('70 delivered', async () => (await app.ctx.db.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'delivered'`, [id])).rows[0].n === 70);
  await waitForNoJobOf(app, id);
  const ids = eventIdsOf(receiver.requests, '/overdue');
  expect(new Set(ids).size).toBe(70);
  expect(ids).toHaveLength(70);
  for (const d of await deliveries(app, key, id)) expect(d.attempts).toBe(1);
});
