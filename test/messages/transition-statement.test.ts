import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { applyTransitions, applyTransitionsLean } from '../../src/messages/transitions.js';
import { transitionStatement } from '../../src/messages/sql/transition-messages.js';
import type { Db } from '../../src/db/pool.js';
import { newId } from '../../src/ids/ids.js';
import { MESSAGE_COLUMNS, messageJsonSql, toMessage, type MessageRow } from '../../src/messages/message.js';

let app: TestApp;
let key: string;
let orgId: string;
let deviceId: string;

const numbers = (n: number, from = 3000000) => Array.from({ length: n }, (_, i) => `+26134${String(from + i).slice(-7)}`);

async function send(n: number, extra: Record<string, unknown> = {}): Promise<string[]> {
  const res = await app.request('POST', '/v1/messages', { key, body: { to: numbers(n), body: 'état: ok', ...extra } });
  expect(res.status).toBe(202);
  return res.body.messages.map((m: { id: string }) => m.id);
}

async function rows(ids: string[]): Promise<MessageRow[]> {
  const { rows } = await app.ctx.db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = ANY($1::text[]) ORDER BY id`, [ids]);
  return rows as MessageRow[];
}

beforeAll(async () => {
  app = await startTestApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
  deviceId = await insertTestDevice(app.ctx, orgId, { sims: [2] });
});
afterAll(() => app.close());

describe('the transition statement', () => {
  it('builds in SQL exactly the Message that toMessage builds, whatever the message went through', async () => {
    const ids = [...(await send(3)), ...(await send(1, { deviceId, simSubscriptionId: 2 }))];
    const at = new Date(Date.now() + 1234);
    await applyTransitions(
      app.ctx.db,
      app.ctx.changes,
      ids.map((id) => ({ id, to: 'claimed' as const, at, source: 'device' as const, deviceId, simSubscriptionId: 2 })),
    );
    await applyTransitions(app.ctx.db, app.ctx.changes, [{ id: ids[1]!, to: 'failed', at, source: 'device', code: 'radio_off' }]);
    await applyTransitions(app.ctx.db, app.ctx.changes, [{ id: ids[2]!, to: 'sending', at, source: 'device' }]);
    await applyTransitions(app.ctx.db, app.ctx.changes, [{ id: ids[2]!, to: 'sent', at: new Date(at.getTime() + 7), source: 'device' }]);
    await applyTransitions(app.ctx.db, app.ctx.changes, [{ id: ids[2]!, to: 'delivered', at: new Date(at.getTime() + 9), source: 'device' }]);

    const { rows: json } = await app.ctx.db.query(`SELECT ${messageJsonSql('m')} AS j FROM messages m WHERE id = ANY($1::text[]) ORDER BY id`, [ids]);
    const expected = (await rows(ids)).map(toMessage);
    expect(json.map((r) => r.j)).toEqual(expected);
    expect(expected.map((m) => m.status).sort()).toEqual(['claimed', 'claimed', 'delivered', 'failed']);
  });

  it('writes the timeline entry of each change, and refuses a change the lifecycle does not allow', async () => {
    const [id] = await send(1);
    const at = new Date();
    const refused = await applyTransitionsLean(app.ctx.hotDb, app.ctx.changes, [{ id: id!, to: 'sent', at, source: 'device', deviceId }]);
    expect(refused).toEqual([]);
    const changed = await applyTransitionsLean(app.ctx.hotDb, app.ctx.changes, [{ id: id!, to: 'claimed', at, source: 'device', deviceId }]);
    expect(changed).toEqual([{ id, orgId, deviceId, status: 'claimed', fromStatus: 'queued' }]);
    const { rows: timeline } = await app.ctx.db.query('SELECT from_status, to_status, source, device_id FROM message_events WHERE message_id = $1 ORDER BY id', [id]);
    expect(timeline).toEqual([{ from_status: 'queued', to_status: 'claimed', source: 'device', device_id: deviceId }]);
  });

  it('with liveDevicesOnly, gives a revoked phone nothing and leaves its messages queued', async () => {
    const revoked = await insertTestDevice(app.ctx, orgId, { revoked: true });
    const ids = await send(2);
    const at = new Date();
    const changed = await applyTransitionsLean(
      app.ctx.hotDb,
      app.ctx.changes,
      [
        { id: ids[0]!, to: 'claimed', at, source: 'device', deviceId: revoked },
        { id: ids[1]!, to: 'claimed', at, source: 'device', deviceId },
      ],
      { liveDevicesOnly: true },
    );
    expect(changed.map((c) => [c.id, c.deviceId])).toEqual([[ids[1], deviceId]]);
    expect((await rows(ids)).map((r) => r.status)).toEqual(['queued', 'claimed']);
  });

  it('writes the webhook event of a change only when an enabled endpoint subscribes to it, with the Message as data', async () => {
    await app.ctx.db.query(`INSERT INTO webhook_endpoints (id, org_id, url, event_types, secret) VALUES ($1, $2, 'https://example.com/h', $3, 'whsec_test')`, [
      newId('webhookEndpoint'),
      orgId,
      ['message.claimed'],
    ]);
    const [a, b] = await send(2);
    const at = new Date();
    await applyTransitionsLean(app.ctx.hotDb, app.ctx.changes, [
      { id: a!, to: 'claimed', at, source: 'device', deviceId },
      { id: b!, to: 'claimed', at, source: 'device', deviceId },
    ]);
    await applyTransitionsLean(app.ctx.hotDb, app.ctx.changes, [{ id: a!, to: 'sending', at, source: 'device', deviceId, heldBy: deviceId }]);
    const { rows: events } = await app.ctx.db.query(`SELECT id, type, payload FROM events WHERE org_id = $1 AND payload->'data'->>'id' = ANY($2::text[]) ORDER BY id`, [orgId, [a, b]]);
    expect(events.map((e) => [e.type, e.payload.data.id]).sort()).toEqual(
      [
        ['message.claimed', a],
        ['message.claimed', b],
      ].sort(),
    );
    const claimedA = events.find((e) => e.payload.data.id === a)!;
    expect(claimedA.payload).toMatchObject({ id: claimedA.id, event: 'message.claimed', data: { status: 'claimed', deviceId } });
    expect(Number.isNaN(Date.parse(claimedA.payload.createdAt))).toBe(false);
  });

  it('waits for a concurrent change of the message and applies its own from the status that change left', async () => {
    const [id] = await send(1);
    const at = new Date();
    await applyTransitionsLean(app.ctx.hotDb, app.ctx.changes, [{ id: id!, to: 'claimed', at, source: 'device', deviceId }]);
    // Another writer moves the message claimed -> sending and has not committed yet.
    const other = await app.ctx.db.connect();
    try {
      await other.query('BEGIN');
      await applyTransitions(other, app.ctx.changes, [{ id: id!, to: 'sending', at, source: 'device', heldBy: deviceId }]);
      // Failing is allowed from claimed and from sending: this change must wait, then see sending.
      const failing = applyTransitionsLean(app.ctx.hotDb, app.ctx.changes, [{ id: id!, to: 'failed', at: new Date(at.getTime() + 5), source: 'device', code: 'radio_off', heldBy: deviceId }]);
      const waited = await Promise.race([failing.then(() => false), new Promise((r) => setTimeout(() => r(true), 300))]);
      expect(waited).toBe(true);
      await other.query('COMMIT');
      expect(await failing).toEqual([{ id, orgId, deviceId, status: 'failed', fromStatus: 'sending' }]);
    } finally {
      other.release();
    }
    const { rows: timeline } = await app.ctx.db.query('SELECT from_status, to_status FROM message_events WHERE message_id = $1 ORDER BY id', [id]);
    expect(timeline).toEqual([
      { from_status: 'queued', to_status: 'claimed' },
      { from_status: 'claimed', to_status: 'sending' },
      { from_status: 'sending', to_status: 'failed' },
    ]);
  });

  it('keeps its prepared plan on the hot pool an index lookup per message, even when made while messages is empty', async () => {
    const genericPlan = async (db: Db) => {
      const c = await db.connect();
      try {
        await c.query('BEGIN');
        // A new deployment's table: empty and never analyzed (a temporary table shadows the real one).
        await c.query('CREATE TEMP TABLE messages (LIKE public.messages INCLUDING ALL) ON COMMIT DROP');
        const { rows: lines } = await c.query(`EXPLAIN (GENERIC_PLAN) ${transitionStatement('lean')}`);
        return lines.map((l) => l['QUERY PLAN'] as string).join('\n');
      } finally {
        await c.query('ROLLBACK');
        c.release();
      }
    };
    // What an ordinary connection would cache, and keep as the table grows.
    expect(await genericPlan(app.ctx.db)).toMatch(/Seq Scan on messages/);
    const hot = await genericPlan(app.ctx.hotDb);
    expect(hot).toMatch(/Index Scan using messages_pkey on messages/);
    expect(hot).not.toMatch(/Seq Scan on messages|Hash Join|Merge Join/);
  });
});
