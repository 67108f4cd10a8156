import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryQueue } from '../../src/webhooks/queue.js';
import { relayAll } from '../../src/webhooks/relay.js';
import { claimDeliveries, type Claim } from '../../src/webhooks/worker/claim-deliveries.js';
import type { TestApp } from '../support/harness.js';
import { createEndpoint, emitEvents, startAppWithQueue } from './support.js';

let app: TestApp;
let queue: DeliveryQueue;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, queue, close } = await startAppWithQueue('claim-test'));
});
afterAll(() => close());

/** `count` pending deliveries of a new endpoint, relayed (queued, with no worker to take them). */
async function pendingDeliveries(count: number): Promise<string[]> {
  const { org, key } = await app.createOrg();
  const { id } = await createEndpoint(app, key, { url: 'https://localhost:9/hook', eventTypes: ['message.sent'] });
  await emitEvents(app, org.id, 'message.sent', count);
  await relayAll(app.ctx, queue);
  const { rows } = await app.ctx.db.query('SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id', [id]);
  return rows.map((r) => r.id as string);
}

const claimOf = (deliveryId: string, leaseMs = 60_000, dueInMs = 1000): Claim =>
  ({ deliveryId, leaseUntil: new Date(Date.now() + leaseMs), dueBy: new Date(Date.now() + dueInMs) });

const nextAttemptAt = async (id: string): Promise<Date | null> =>
  (await app.ctx.db.query('SELECT next_attempt_at FROM webhook_deliveries WHERE id = $1', [id])).rows[0].next_attempt_at;

describe('claiming deliveries', () => {
  it('returns what an attempt needs and moves nextAttemptAt to the end of the lease', async () => {
    const [id] = await pendingDeliveries(1);
    const claim = claimOf(id!);
    const [work] = await claimDeliveries(app.ctx.db, [claim]);
    expect(work).toMatchObject({ id, attempts: 0, eventType: 'message.sent', url: 'https://localhost:9/hook', enabled: true, previousSecret: null });
    expect(JSON.parse(work!.body)).toMatchObject({ event: 'message.sent', data: { status: 'sent' } });
    expect(work!.leaseUntil.getTime()).toBe(claim.leaseUntil.getTime());
    expect((await nextAttemptAt(id!))!.getTime()).toBe(claim.leaseUntil.getTime());
  });

  it('gives a delivery to one claim only, whether the claims race or share a batch', async () => {
    const [a, b] = await pendingDeliveries(2);
    const raced = await Promise.all([claimDeliveries(app.ctx.db, [claimOf(a!)]), claimDeliveries(app.ctx.db, [claimOf(a!)])]);
    expect(raced.flat().filter((w) => w !== null)).toHaveLength(1);
    const shared = await claimDeliveries(app.ctx.db, [claimOf(b!), claimOf(b!)]);
    expect(shared[0]?.id).toBe(b);
    expect(shared[1]).toBeNull();
  });

  it('leaves alone a delivery that is not due yet, and takes it once its lease has passed', async () => {
    const [id] = await pendingDeliveries(1);
    await claimDeliveries(app.ctx.db, [claimOf(id!, 3000)]);
    expect(await claimDeliveries(app.ctx.db, [claimOf(id!)])).toEqual([null]);
    const [late] = await claimDeliveries(app.ctx.db, [claimOf(id!, 60_000, 4000)]);
    expect(late?.id).toBe(id);
  });

  it('does not claim delivered, dead or unknown deliveries', async () => {
    const [delivered, dead] = await pendingDeliveries(2);
    await app.ctx.db.query(`UPDATE webhook_deliveries SET status = 'delivered' WHERE id = $1`, [delivered]);
    await app.ctx.db.query(`UPDATE webhook_deliveries SET status = 'dead' WHERE id = $1`, [dead]);
    expect(await claimDeliveries(app.ctx.db, [claimOf(delivered!), claimOf(dead!), claimOf('whd_missing')])).toEqual([null, null, null]);
  });
});
