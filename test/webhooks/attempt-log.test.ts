import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inHotTransaction, inTransaction } from '../../src/db/pool.js';
import { ATTEMPTS_KEPT, recordAttempts } from '../../src/webhooks/worker/record-attempts.js';
import { MESSAGE_EVENTS_STATEMENT } from '../../src/webhooks/sql/select-message-webhook-events.js';
import { signedInMember, type SignedInMember } from '../support/members.js';
import { insertTestDevice } from '../support/devices.js';
import { createEndpoint, deliveries, emitEvents, startWebhookRig, waitFor, type WebhookRig } from './support.js';

/** Each attempt of a delivery in the inspector: when, how long, the answer's status and first KiB, or the error. */
let rig: WebhookRig;
let orgId: string;
let key: string;
let viewer: SignedInMember;

beforeAll(async () => {
  // A failed first attempt is retried a second later; after the second the delivery is dead.
  rig = await startWebhookRig({ webhookScheduleSeconds: [0, 1], reconcileGraceMs: 0 });
  ({
    org: { id: orgId },
    key,
  } = await rig.app.createOrg());
  viewer = await signedInMember(rig.app, orgId, 'viewer');
});
afterAll(() => rig.close());

const inspect = async (endpointId: string, deliveryId: string) => {
  const res = await rig.app.request('GET', `/dashboard/v1/webhooks/${endpointId}/deliveries/${deliveryId}`, { headers: viewer.headers });
  expect(res.status).toBe(200);
  return res.body as { delivery: { status: string; attempts: number }; attempts: Array<Record<string, any>> };
};

describe('the attempts of a delivery', () => {
  it('records a failed attempt then a successful one, newest first, with status, excerpt and timing; the excerpt stops at 1 KiB', async () => {
    const e = await createEndpoint(rig.app, key, { url: `https://localhost:${rig.receiver.port}/flaky`, eventTypes: ['message.failed'] });
    // 600 two-byte characters: 1,200 bytes, of which the excerpt keeps 512 characters (1,024 bytes).
    const errorPage = `${'é'.repeat(600)}END`;
    let calls = 0;
    rig.receiver.respondWith((r) => (r.path !== '/flaky' ? { status: 200 } : calls++ === 0 ? { status: 503, body: errorPage, delayMs: 50 } : { status: 200, body: '{"ok":true}' }));
    const before = Date.now();
    await emitEvents(rig.app, orgId, 'message.failed', 1);
    const delivered = await waitFor('the delivery, delivered on its second attempt', async () => (await deliveries(rig.app, key, e.id)).find((d) => d.status === 'delivered'), 20_000);
    const { delivery, attempts } = await inspect(e.id, delivered.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(attempts).toHaveLength(2);
    const [second, first] = attempts;
    expect(first).toMatchObject({ number: 1, statusCode: 503, error: 'HTTP 503', responseExcerpt: 'é'.repeat(512) });
    expect(Buffer.byteLength(first!.responseExcerpt)).toBe(1024);
    expect(first!.durationMs).toBeGreaterThanOrEqual(50);
    expect(second).toMatchObject({ number: 2, statusCode: 200, error: null, responseExcerpt: '{"ok":true}' });
    expect(second!.durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(first!.startedAt)).toBeGreaterThanOrEqual(before - 1000);
    // The retry waited its second after the first attempt.
    expect(Date.parse(second!.startedAt) - Date.parse(first!.startedAt)).toBeGreaterThanOrEqual(1000);
  });

  it('records the error of an attempt that got no answer, and keeps only the last 10 attempts', async () => {
    // Nothing listens on port 9: each attempt is refused.
    const e = await createEndpoint(rig.app, key, { url: 'https://localhost:9/nobody', eventTypes: ['message.delivered'] });
    await emitEvents(rig.app, orgId, 'message.delivered', 1);
    const dead = await waitFor('the delivery, dead after two refused attempts', async () => (await deliveries(rig.app, key, e.id)).find((d) => d.status === 'dead'), 20_000);
    const { attempts } = await inspect(e.id, dead.id);
    expect(attempts).toHaveLength(2);
    for (const a of attempts) expect(a).toMatchObject({ statusCode: null, responseExcerpt: null, error: expect.stringContaining('ECONNREFUSED') });

    // Eleven more attempts, recorded as the worker records them (not due again, so no worker takes it).
    await rig.app.ctx.db.query(`UPDATE webhook_deliveries SET status = 'retrying', next_attempt_at = now() + interval '1 hour' WHERE id = $1`, [dead.id]);
    for (let i = 0; i < 11; i++) {
      const at = new Date();
      await inHotTransaction(rig.app.ctx.hotDb, (tx) =>
        recordAttempts(
          tx,
          [
            {
              deliveryId: dead.id,
              endpointId: e.id,
              ok: false,
              statusCode: 500,
              error: 'HTTP 500',
              responseExcerpt: `try ${i}`,
              startedAt: at,
              finishedAt: at,
              status: 'retrying',
              nextAttemptAt: new Date(Date.now() + 3_600_000),
            },
          ],
          86_400,
        ),
      );
    }
    const after = await inspect(e.id, dead.id);
    expect(after.delivery.attempts).toBe(13);
    expect(after.attempts).toHaveLength(ATTEMPTS_KEPT);
    expect(after.attempts.map((a) => a.number)).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4]);
    expect(after.attempts[0]).toMatchObject({ statusCode: 500, responseExcerpt: 'try 10' });
  });
});

describe("a message's webhook events", () => {
  it('lists the events about a message with where each went; another organization gets 404', async () => {
    const e = await createEndpoint(rig.app, key, { url: `https://localhost:${rig.receiver.port}/queued`, eventTypes: ['message.queued'] });
    rig.receiver.respondWith(() => ({ status: 200 }));
    const deviceId = await insertTestDevice(rig.app.ctx, orgId, { name: 'Till 1' });
    const sent = await rig.app.request('POST', '/v1/messages', { key, body: { to: '+261341111301', body: 'Salama', deviceId } });
    expect(sent.status).toBe(202);
    const messageId = sent.body.messages[0].id as string;
    const url = `/dashboard/v1/messages/${messageId}/webhook-events`;
    const events = await waitFor('the queued event, delivered', async () => {
      const res = await rig.app.request('GET', url, { headers: viewer.headers });
      return res.body.events?.[0]?.deliveries?.[0]?.status === 'delivered' && res.body.events;
    });
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        type: 'message.queued',
        createdAt: expect.any(String),
        deliveries: [
          {
            id: expect.stringMatching(/^whd_/),
            endpointId: e.id,
            url: `https://localhost:${rig.receiver.port}/queued`,
            status: 'delivered',
            attempts: 1,
            lastStatusCode: 200,
            lastAttemptAt: expect.any(String),
          },
        ],
      },
    ]);
    // Another message of the organization has its own events, not this one's.
    const other = await rig.app.request('POST', '/v1/messages', { key, body: { to: '+261341111302', body: 'Veloma', deviceId } });
    expect(other.status).toBe(202);
    const otherEvents = await rig.app.request('GET', `/dashboard/v1/messages/${other.body.messages[0].id}/webhook-events`, { headers: viewer.headers });
    expect(otherEvents.body.events.every((x: { id: string }) => x.id !== events[0].id)).toBe(true);

    const stranger = await signedInMember(rig.app, (await rig.app.createOrg()).org.id, 'owner');
    expect((await rig.app.request('GET', url, { headers: stranger.headers })).status).toBe(404);
    expect((await rig.app.request('GET', '/dashboard/v1/messages/msg_nothing/webhook-events', { headers: viewer.headers })).status).toBe(404);
  });

  it('reads the events through their index by message, not the whole events table', async () => {
    // The table is small here, so the planner is told to avoid a sequential scan when it can:
    // the plan shows the index matches the statement's expression.
    const plan = await inTransaction(rig.app.ctx.db, async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const { rows } = await tx.query(`EXPLAIN (GENERIC_PLAN) ${MESSAGE_EVENTS_STATEMENT}`);
      return rows.map((r) => r['QUERY PLAN'] as string).join('\n');
    });
    expect(plan).toMatch(/events_by_message/);
    expect(plan).not.toMatch(/Seq Scan on events/);
  });
});
