import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.js';
import { startDevicesApp } from '../devices/support.js';
import { insertTestDevice } from '../support/devices.js';
import { recordIncoming, recordIncomingMany } from '../../src/incoming/record-incoming.js';
import { HafatraError } from '../../src/errors/errors.js';
import { eventsOf, sms, subscribeWebhook, unlockedPhone } from './support.js';

let app: TestApp;
let orgId: string;

beforeAll(async () => {
  app = await startDevicesApp();
  orgId = (await app.createOrg({ retentionDays: 7 })).org.id;
});
afterAll(() => app.close());

const count = async (sql: string, params: unknown[]) => Number((await app.ctx.db.query(sql, params)).rows[0].n);

describe('inbound lock', () => {
  async function lockedBy(set: string): Promise<HafatraError> {
    const deviceId = await insertTestDevice(app.ctx, orgId);
    if (set) await app.ctx.db.query(`UPDATE devices SET ${set} WHERE id = $1`, [deviceId]);
    const err = await recordIncoming(app.ctx, { kind: 'device', orgId, deviceId }, sms()).catch((e) => e);
    expect(err).toBeInstanceOf(HafatraError);
    expect(await count('SELECT count(*) AS n FROM incoming_messages WHERE device_id = $1', [deviceId])).toBe(0);
    return err;
  }

  it('refuses SMS from a phone that never reported the default SMS app role', async () => {
    const err = await lockedBy('');
    expect(err.code).toBe('inbound_locked');
    expect(err.message).toContain('not_reported');
  });

  it('refuses SMS when Hafatra is not the default SMS app', async () => {
    const err = await lockedBy('default_sms_app = false, default_sms_app_reported_at = now()');
    expect(err.code).toBe('inbound_locked');
    expect(err.message).toContain('not_default_sms_app');
  });

  it('refuses SMS when the role was last reported more than 45 minutes ago', async () => {
    const err = await lockedBy(`default_sms_app = true, default_sms_app_reported_at = now() - interval '46 minutes'`);
    expect(err.code).toBe('inbound_locked');
    expect(err.message).toContain('stale');
  });

  it('refuses SMS from a revoked phone', async () => {
    const err = await lockedBy(`default_sms_app = true, default_sms_app_reported_at = now(), revoked_at = now()`);
    expect(err.code).toBe('inbound_locked');
    expect(err.message).toContain('revoked');
  });

  it('answers every item of a batch with inbound_locked and stores none', async () => {
    const deviceId = await insertTestDevice(app.ctx, orgId);
    const list = [sms(), sms()];
    const results = await recordIncomingMany(app.ctx, { kind: 'device', orgId, deviceId }, list);
    expect(results).toEqual(list.map((s) => ({ clientId: s.clientId, error: { code: 'inbound_locked', message: expect.stringContaining('not_reported') } })));
  });
});

describe('recording', () => {
  it('stores an SMS with the retention period of the organization and answers its id', async () => {
    const phone = await unlockedPhone(app, orgId);
    const receivedAt = '2026-01-10T08:00:00.000Z';
    const result = await recordIncoming(app.ctx, phone, sms({ clientId: 'a1', body: 'Veloma', receivedAt, simSubscriptionId: 2 }));
    expect(result).toEqual({ clientId: 'a1', incomingId: expect.stringMatching(/^inc_/) });
    const { rows } = await app.ctx.db.query('SELECT * FROM incoming_messages WHERE id = $1', [result.incomingId]);
    expect(rows[0]).toMatchObject({ body: 'Veloma', from_number: '+261341112233', sim_subscription_id: 2, org_id: orgId });
    expect(rows[0].received_at.toISOString()).toBe(receivedAt);
    expect(rows[0].retention_expires_at.toISOString()).toBe('2026-01-17T08:00:00.000Z');
  });

  it('dedupes by clientId per phone: a resend answers the same id and writes nothing', async () => {
    const phone = await unlockedPhone(app, orgId);
    const first = await recordIncoming(app.ctx, phone, sms({ clientId: 'dup', body: 'one' }));
    const again = await recordIncoming(app.ctx, phone, sms({ clientId: 'dup', body: 'changed on resend' }));
    const batch = await recordIncomingMany(app.ctx, phone, [sms({ clientId: 'dup' }), sms({ clientId: 'dup' })]);
    expect(again.incomingId).toBe(first.incomingId);
    expect(batch.map((r) => 'incomingId' in r && r.incomingId)).toEqual([first.incomingId, first.incomingId]);
    expect(await count('SELECT count(*) AS n FROM incoming_messages WHERE device_id = $1', [phone.deviceId])).toBe(1);
    const { rows } = await app.ctx.db.query('SELECT body FROM incoming_messages WHERE id = $1', [first.incomingId]);
    expect(rows[0].body).toBe('one');
  });

  it('keeps the same clientId of two different phones apart', async () => {
    const a = await unlockedPhone(app, orgId);
    const b = await unlockedPhone(app, orgId);
    const ra = await recordIncoming(app.ctx, a, sms({ clientId: 'same' }));
    const rb = await recordIncoming(app.ctx, b, sms({ clientId: 'same' }));
    expect(ra.incomingId).not.toBe(rb.incomingId);
  });

  it('uses the server time and warns when receivedAt is ahead of the server clock', async () => {
    const phone = await unlockedPhone(app, orgId);
    const ahead = new Date(Date.now() + 3_600_000).toISOString();
    const result = await recordIncoming(app.ctx, phone, sms({ receivedAt: ahead }));
    expect(result.warning?.code).toBe('clock_skew');
    const { rows } = await app.ctx.db.query('SELECT received_at FROM incoming_messages WHERE id = $1', [result.incomingId]);
    expect(Math.abs(rows[0].received_at.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('writes incoming.received with the full IncomingMessage when the organization subscribed', async () => {
    const { org } = await app.createOrg();
    await subscribeWebhook(app, org.id, ['incoming.received']);
    const phone = await unlockedPhone(app, org.id);
    const result = await recordIncoming(app.ctx, phone, sms({ clientId: 'ev', body: 'hello' }));
    await recordIncoming(app.ctx, phone, sms({ clientId: 'ev' }));
    const events = await eventsOf(app, org.id, 'incoming.received');
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({ event: 'incoming.received', data: { id: result.incomingId, deviceId: phone.deviceId, body: 'hello', mobileMoney: null, bodyPurgedAt: null } });
    expect(Object.keys(events[0]!.payload.data).sort()).toEqual([
      'body',
      'bodyPurgedAt',
      'createdAt',
      'deviceId',
      'from',
      'id',
      'mobileMoney',
      'receivedAt',
      'retentionExpiresAt',
      'simSubscriptionId',
    ]);
  });

  it('writes no event when nobody subscribed', async () => {
    const { org } = await app.createOrg();
    const phone = await unlockedPhone(app, org.id);
    await recordIncoming(app.ctx, phone, sms());
    expect(await eventsOf(app, org.id, 'incoming.received')).toHaveLength(0);
  });
});

describe('concatenated SMS', () => {
  const part = (ref: number | string, index: number, count: number, body: string, clientId = `p-${ref}-${index}-${Math.random()}`) =>
    sms({ clientId, from: 'MVola', body, part: { ref, index, count } });

  it('joins parts arriving out of order, with duplicates, into one message in index order', async () => {
    const phone = await unlockedPhone(app, orgId);
    const p3 = part(7, 3, 3, 'C.');
    const p1 = part(7, 1, 3, 'A ');
    const p2 = part(7, 2, 3, 'B ');
    expect(await recordIncoming(app.ctx, phone, p3)).toEqual({ clientId: p3.clientId, incomingId: null, pending: true });
    expect(await recordIncoming(app.ctx, phone, p3)).toEqual({ clientId: p3.clientId, incomingId: null, pending: true });
    expect(await recordIncoming(app.ctx, phone, p1)).toMatchObject({ incomingId: null, pending: true });
    const joined = await recordIncoming(app.ctx, phone, p2);
    expect(joined.incomingId).toMatch(/^inc_/);
    expect(joined.pending).toBeUndefined();
    const { rows } = await app.ctx.db.query('SELECT body, from_number FROM incoming_messages WHERE device_id = $1', [phone.deviceId]);
    expect(rows).toEqual([{ body: 'A B C.', from_number: 'MVola' }]);
    expect(await count('SELECT count(*) AS n FROM incoming_parts WHERE device_id = $1', [phone.deviceId])).toBe(0);
    // A part sent again after the join answers the joined message and stores nothing.
    expect(await recordIncoming(app.ctx, phone, p1)).toEqual({ clientId: p1.clientId, incomingId: joined.incomingId });
    expect(await count('SELECT count(*) AS n FROM incoming_parts WHERE device_id = $1', [phone.deviceId])).toBe(0);
  });

  it('joins parts sent in one batch and answers each part', async () => {
    const phone = await unlockedPhone(app, orgId);
    const results = await recordIncomingMany(app.ctx, phone, [part('x9', 2, 2, 'world'), sms({ clientId: 'single' }), part('x9', 1, 2, 'hello ')]);
    expect(results[0]).toMatchObject({ incomingId: null, pending: true });
    const joinedId = (results[2] as { incomingId: string }).incomingId;
    expect(joinedId).toMatch(/^inc_/);
    const { rows } = await app.ctx.db.query('SELECT body FROM incoming_messages WHERE id = $1', [joinedId]);
    expect(rows[0].body).toBe('hello world');
  });

  it('keeps a reused reference apart: a later SMS with the same reference joins anew', async () => {
    const phone = await unlockedPhone(app, orgId);
    await recordIncoming(app.ctx, phone, part(1, 1, 2, 'first '));
    const a = await recordIncoming(app.ctx, phone, part(1, 2, 2, 'one'));
    await recordIncoming(app.ctx, phone, part(1, 1, 2, 'second '));
    const b = await recordIncoming(app.ctx, phone, part(1, 2, 2, 'two'));
    expect(a.incomingId).not.toBe(b.incomingId);
    const { rows } = await app.ctx.db.query('SELECT body FROM incoming_messages WHERE device_id = $1 ORDER BY id', [phone.deviceId]);
    expect(rows.map((r) => r.body)).toEqual(['first one', 'second two']);
  });

  it('does not join parts of different senders that share a reference', async () => {
    const phone = await unlockedPhone(app, orgId);
    await recordIncoming(app.ctx, phone, { ...part(5, 1, 2, 'a'), from: '+261340000001' });
    const r = await recordIncoming(app.ctx, phone, { ...part(5, 2, 2, 'b'), from: '+261340000002' });
    expect(r.pending).toBe(true);
  });

  it('refuses a part numbered past its count, alone or within a batch', async () => {
    const phone = await unlockedPhone(app, orgId);
    const bad = part(8, 3, 2, 'x');
    const err = await recordIncoming(app.ctx, phone, bad).catch((e) => e);
    expect(err).toMatchObject({ code: 'invalid_request', message: 'part.index 3 is greater than part.count 2' });
    const good = sms();
    const results = await recordIncomingMany(app.ctx, phone, [bad, good]);
    expect(results[0]).toEqual({ clientId: bad.clientId, error: { code: 'invalid_request', message: 'part.index 3 is greater than part.count 2' } });
    expect(results[1]).toMatchObject({ clientId: good.clientId, incomingId: expect.stringMatching(/^inc_/) });
    expect(await count('SELECT count(*) AS n FROM incoming_parts WHERE device_id = $1', [phone.deviceId])).toBe(0);
  });

  it('joins parts stored concurrently exactly once', async () => {
    const phone = await unlockedPhone(app, orgId);
    const parts = [1, 2, 3, 4].map((i) => part(44, i, 4, `${i}`));
    const results = await Promise.all(parts.map((p) => recordIncoming(app.ctx, phone, p)));
    expect(results.filter((r) => r.incomingId !== null)).toHaveLength(1);
    const { rows } = await app.ctx.db.query('SELECT body FROM incoming_messages WHERE device_id = $1', [phone.deviceId]);
    expect(rows).toEqual([{ body: '1234' }]);
  });
});
