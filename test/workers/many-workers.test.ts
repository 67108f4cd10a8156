import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeContext, openContext } from '../../src/app/runtime.js';
import { startWorkers, type Workers } from '../../src/app/workers.js';
import type { AppContext } from '../../src/context/app-context.js';
import { recordIncoming } from '../../src/incoming/record-incoming.js';
import { sms, unlockedPhone } from '../incoming/support.js';
import { mvolaReceived } from '../mobile-money/integration/support.js';
import { insertTestDevice } from '../support/devices.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver.js';
import { eventually, sendMessages } from '../support/phones.js';
import { LOCAL_HOSTS, createEndpoint } from '../webhooks/support.js';

/**
 * Three worker processes' worth of workers (each its own context: own Postgres pools, own Redis
 * connections, own BullMQ workers) over one deployment: every sweep, the reconciler, the webhook
 * relay and the mobile-money reader run in all three at once, and each item is handled once.
 */
const WORKERS = 3;
let app: TestApp;
let receiver: HttpsReceiver;
const contexts: AppContext[] = [];
const workers: Workers[] = [];

beforeAll(async () => {
  receiver = await startHttpsReceiver();
  receiver.respondWith(() => ({ status: 200 }));
  app = await startTestApp({ webhookAllowHosts: LOCAL_HOSTS, webhookScheduleSeconds: [0, 1, 1], sweepIntervalMs: 50, reconcileIntervalMs: 50 });
  for (let i = 0; i < WORKERS; i++) {
    const ctx = openContext(app.ctx.config, `worker-${i}`);
    contexts.push(ctx);
    workers.push(await startWorkers(ctx, { webhooks: { ca: receiver.ca } }));
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.close()));
  await Promise.all(contexts.map((c) => closeContext(c)));
  await app?.close();
  await receiver?.close();
});

it('expires each message once, delivers each webhook event once and reads each received SMS once, with three workers racing', async () => {
  const { org, key } = await app.createOrg({ dailyLimit: 100_000 });
  await createEndpoint(app, key, { url: `${receiver.url}expired`, eventTypes: ['message.expired'] });

  // 200 messages no phone will take (it never connects), their validity over: every worker's expiry sweep sees them.
  await insertTestDevice(app.ctx, org.id);
  const ids = await sendMessages(app, key, 200);
  await app.ctx.db.query(`UPDATE messages SET expires_at = now() - interval '1 second' WHERE id = ANY($1)`, [ids]);
  // 40 received mobile-money SMS: every worker's parse worker and recovery pass may take them.
  const phone = await unlockedPhone(app, org.id);
  const incoming: string[] = [];
  for (let i = 0; i < 40; i++) incoming.push((await recordIncoming(app.ctx, phone, sms({ from: 'MVola', body: mvolaReceived() }))).incomingId!);

  await eventually(
    async () => (await app.ctx.db.query(`SELECT count(*)::int AS n FROM messages WHERE id = ANY($1) AND status = 'expired'`, [ids])).rows[0].n === ids.length,
    30_000,
    'every message expired',
  );
  const timeline = await app.ctx.db.query(`SELECT message_id, count(*)::int AS n FROM message_events WHERE message_id = ANY($1) AND to_status = 'expired' GROUP BY message_id`, [ids]);
  expect(timeline.rows).toHaveLength(ids.length);
  expect(timeline.rows.every((r) => r.n === 1)).toBe(true);

  const delivered = await eventually(
    () => {
      const bodies = receiver.requests.filter((r) => r.path === '/expired').map((r) => JSON.parse(r.rawBody.toString()) as { data: { id: string } });
      return bodies.length >= ids.length && bodies;
    },
    30_000,
    'a webhook per expired message',
  );
  expect(new Set(delivered.map((b) => b.data.id))).toEqual(new Set(ids));
  expect(delivered).toHaveLength(ids.length);

  const readings = await eventually(
    async () => {
      const { rows } = await app.ctx.db.query('SELECT incoming_message_id FROM mobile_money_events WHERE org_id = $1', [org.id]);
      return rows.length >= incoming.length && rows;
    },
    30_000,
    'a mobile-money record per SMS',
  );
  expect(new Set(readings.map((r) => r.incoming_message_id))).toEqual(new Set(incoming));
  expect(readings).toHaveLength(incoming.length);
}, 90_000);
