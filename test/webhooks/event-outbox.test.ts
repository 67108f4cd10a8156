import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DeliveryQueue } from '../../src/webhooks/queue.js';
import { relayAll } from '../../src/webhooks/relay.js';
import { takeUndispatchedEvents } from '../../src/webhooks/sql/take-undispatched-events.js';
import type { TestApp } from '../support/harness.js';
import { createEndpoint, emitEvents, startAppWithQueue } from './support.js';

let app: TestApp;
let queue: DeliveryQueue;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, queue, close } = await startAppWithQueue('event-outbox-test'));
});
afterAll(() => close());

const outboxOf = async (orgId: string) =>
  (await app.ctx.db.query<{ id: string }>('SELECT e.id FROM event_outbox o JOIN events e ON e.id = o.event_id WHERE e.org_id = $1 ORDER BY e.id', [orgId])).rows.map((r) => r.id);

it('an event waits in the outbox until a relay pass commits its deliveries, and its row is never rewritten', async () => {
  const { org, key } = await app.createOrg();
  const { id: endpointId } = await createEndpoint(app, key, { url: 'https://localhost:9/hook', eventTypes: ['message.sent'] });
  await emitEvents(app, org.id, 'message.sent', 3);
  const waiting = await outboxOf(org.id);
  expect(waiting).toHaveLength(3);
  const versions = async () => (await app.ctx.db.query('SELECT id, xmin::text AS version FROM events WHERE id = ANY($1) ORDER BY id', [waiting])).rows;
  const before = await versions();

  await relayAll(app.ctx, queue);

  expect(await outboxOf(org.id)).toEqual([]);
  const made = await app.ctx.db.query('SELECT event_id FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY event_id', [endpointId]);
  expect(made.rows.map((r) => r.event_id)).toEqual(waiting);
  // Relaying marks nothing on the event: the row Postgres holds is the one the send wrote.
  expect(await versions()).toEqual(before);
});

it('events taken by a pass that rolls back are back in the outbox, and a concurrent pass skips those held', async () => {
  const { org, key } = await app.createOrg();
  await createEndpoint(app, key, { url: 'https://localhost:9/hook', eventTypes: ['message.failed'] });
  await emitEvents(app, org.id, 'message.failed', 2);
  const waiting = await outboxOf(org.id);
  expect(waiting).toHaveLength(2);

  const first = await app.ctx.db.connect();
  const second = await app.ctx.db.connect();
  try {
    await first.query('BEGIN');
    const taken = await takeUndispatchedEvents(first, 500);
    expect(taken).toEqual(expect.arrayContaining(waiting));
    await second.query('BEGIN');
    expect(await takeUndispatchedEvents(second, 500)).not.toEqual(expect.arrayContaining([waiting[0]]));
    await second.query('ROLLBACK');
    await first.query('ROLLBACK');
  } finally {
    first.release();
    second.release();
  }
  expect(await outboxOf(org.id)).toEqual(waiting);
});
