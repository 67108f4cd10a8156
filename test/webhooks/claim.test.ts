import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryQueue } from '../../src/webhooks/queue.js';
import { relayAll } from '../../src/webhooks/relay.js';
import { CLAIM_STATEMENT, claimDeliveries, type Claim } from '../../src/webhooks/worker/claim-deliveries.js';
import { RECORD_DELIVERIES_STATEMENT, recordAttempts } from '../../src/webhooks/worker/record-attempts.js';
import type { TestApp } from '../support/harness.js';
import { inHotTransaction } from '../../src/db/pool.js';
import { deliveryRecovery } from '../../src/webhooks/recovery.js';
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

const claimOf = (deliveryId: string, leaseMs = 60_000, dueInMs = 1000): Claim => ({ deliveryId, leaseUntil: new Date(Date.now() + leaseMs), dueBy: new Date(Date.now() + dueInMs) });

const timesOf = async (id: string): Promise<{ next_attempt_at: Date | null; leased_until: Date | null }> =>
  (await app.ctx.db.query('SELECT next_attempt_at, leased_until FROM webhook_deliveries WHERE id = $1', [id])).rows[0];

describe('claiming deliveries', () => {
  it('returns what an attempt needs and leases the delivery, keeping the time it was due', async () => {
    const [id] = await pendingDeliveries(1);
    const due = (await timesOf(id!)).next_attempt_at;
    const claim = claimOf(id!);
    const [work] = await claimDeliveries(app.ctx.hotDb, [claim]);
    expect(work).toMatchObject({ id, attempts: 0, eventType: 'message.sent', url: 'https://localhost:9/hook', enabled: true, previousSecret: null });
    expect(JSON.parse(work!.body)).toMatchObject({ event: 'message.sent', data: { status: 'sent' } });
    expect(work!.leaseUntil.getTime()).toBe(claim.leaseUntil.getTime());
    const after = await timesOf(id!);
    expect(after.leased_until!.getTime()).toBe(claim.leaseUntil.getTime());
    expect(after.next_attempt_at).toEqual(due);
  });

  it('keeps the lease in no index, so a claim can be a heap-only update', async () => {
    const { rows } = await app.ctx.db.query(`SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index WHERE indrelid = 'webhook_deliveries'::regclass`);
    expect(rows.length).toBeGreaterThan(0);
    for (const { def } of rows) expect(def).not.toMatch(/leased_until/);
  });

  it('plans the claim and the attempt record as one primary-key lookup per delivery on the hot pool', async () => {
    await pendingDeliveries(1);
    // On an ordinary connection the plan depends on the table's statistics: with a few thousand
    // rows, a hash join over every pending delivery (docs/decisions.md).
    for (const statement of [CLAIM_STATEMENT, RECORD_DELIVERIES_STATEMENT]) {
      const { rows } = await app.ctx.hotDb.query(`EXPLAIN (GENERIC_PLAN) ${statement}`);
      const plan = rows.map((r) => r['QUERY PLAN'] as string).join('\n');
      expect(plan).toMatch(/Index Scan using webhook_deliveries_pkey on webhook_deliveries d/);
      expect(plan).not.toMatch(/Hash Join|Merge Join|Seq Scan on webhook_deliveries|Bitmap Heap Scan on webhook_deliveries/);
    }
  });

  it('gives a delivery to one claim only, whether the claims race or share a batch', async () => {
    const [a, b] = await pendingDeliveries(2);
    const raced = await Promise.all([claimDeliveries(app.ctx.hotDb, [claimOf(a!)]), claimDeliveries(app.ctx.hotDb, [claimOf(a!)])]);
    expect(raced.flat().filter((w) => w !== null)).toHaveLength(1);
    const shared = await claimDeliveries(app.ctx.hotDb, [claimOf(b!), claimOf(b!)]);
    expect(shared[0]?.id).toBe(b);
    expect(shared[1]).toBeNull();
  });

  it('leaves alone a delivery that is not due yet, and takes it once its lease has passed', async () => {
    const [id] = await pendingDeliveries(1);
    await claimDeliveries(app.ctx.hotDb, [claimOf(id!, 3000)]);
    expect(await claimDeliveries(app.ctx.hotDb, [claimOf(id!)])).toEqual([null]);
    const [late] = await claimDeliveries(app.ctx.hotDb, [claimOf(id!, 60_000, 4000)]);
    expect(late?.id).toBe(id);
  });

  it('frees the lease when the attempt is recorded, so a retry due before the lease would end is claimed', async () => {
    const [id] = await pendingDeliveries(1);
    const [work] = await claimDeliveries(app.ctx.hotDb, [claimOf(id!, 60_000)]);
    const now = new Date();
    await inHotTransaction(app.ctx.hotDb, (tx) =>
      recordAttempts(
        tx,
        [
          {
            deliveryId: id!,
            endpointId: work!.endpointId,
            ok: false,
            statusCode: 500,
            error: 'HTTP 500',
            responseExcerpt: null,
            startedAt: now,
            finishedAt: now,
            status: 'retrying',
            nextAttemptAt: now,
          },
        ],
        3600,
      ),
    );
    expect((await timesOf(id!)).leased_until).toBeNull();
    const [retry] = await claimDeliveries(app.ctx.hotDb, [claimOf(id!)]);
    expect(retry).toMatchObject({ id, attempts: 1 });
  });

  it('does not claim delivered, dead or unknown deliveries', async () => {
    const [delivered, dead] = await pendingDeliveries(2);
    await app.ctx.db.query(`UPDATE webhook_deliveries SET status = 'delivered' WHERE id = $1`, [delivered]);
    await app.ctx.db.query(`UPDATE webhook_deliveries SET status = 'dead' WHERE id = $1`, [dead]);
    expect(await claimDeliveries(app.ctx.hotDb, [claimOf(delivered!), claimOf(dead!), claimOf('whd_missing')])).toEqual([null, null, null]);
  });
});

describe('leases and the recovery pass', () => {
  /** The deliveries of `endpointId` that one recovery pass (a fresh one, with BullMQ's data intact) offers again. */
  async function offeredByRecovery(endpointId: string): Promise<string[]> {
    await app.ctx.redis.set(app.ctx.keys.webhooksQueued(), 'test');
    await deliveryRecovery(app.ctx, queue, app.ctx.redis)();
    const jobs = await queue.getJobs(['waiting', 'delayed', 'prioritized']);
    return jobs.filter((j) => j.id?.includes('..') && j.data.endpointId === endpointId).flatMap((j) => j.data.deliveryIds);
  }

  it('offers an overdue delivery again only once its lease has passed too', async () => {
    const [leased, free] = await pendingDeliveries(2);
    const { rows } = await app.ctx.db.query(`UPDATE webhook_deliveries SET next_attempt_at = now() - interval '1 hour' WHERE id = ANY($1::text[]) RETURNING endpoint_id`, [[leased, free]]);
    const [work] = await claimDeliveries(app.ctx.hotDb, [claimOf(leased!, 60_000)]);
    expect(work?.id).toBe(leased);

    const whileLeased = await offeredByRecovery(rows[0].endpoint_id);
    expect(whileLeased).toContain(free);
    expect(whileLeased).not.toContain(leased);

    // As if the worker holding the claim died an hour ago.
    await app.ctx.db.query(`UPDATE webhook_deliveries SET leased_until = now() - interval '1 hour' WHERE id = $1`, [leased]);
    expect(await offeredByRecovery(rows[0].endpoint_id)).toContain(leased);
  });
});
