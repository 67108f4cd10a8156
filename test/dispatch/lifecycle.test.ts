import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { flushPrefix } from '../support/redis.js';
import { writeReports } from '../../src/dispatch/status-reports.js';
import { expireQueued, markSilentUnknown, recoverInterruptedClaims } from '../../src/dispatch/sweeps.js';
import { syncDeviceState } from '../../src/dispatch-queue/device-state.js';
import { claimInRedisOnly } from '../support/redis-half-claim.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ unknownAfterSeconds: 60 });
});
afterAll(() => app.close());

async function setup(phones = 1) {
  const { org, key } = await app.createOrg({ dailyLimit: 100_000 });
  const devices: string[] = [];
  for (let i = 0; i < phones; i++) {
    const id = await insertTestDevice(app.ctx, org.id);
    await app.ctx.db.query('UPDATE devices SET pacing_per_minute = 100000 WHERE id = $1', [id]);
    await syncDeviceState(app.ctx, id);
    devices.push(id);
  }
  const send = async (n = 1) => {
    const res = await app.request('POST', '/v1/messages', { key, body: { to: Array.from({ length: n }, (_, i) => `+2613420${String(i).padStart(5, '0')}`), body: 'hello' } });
    expect(res.status).toBe(202);
    return (res.body.messages as { id: string }[]).map((m) => m.id);
  };
  return { orgId: org.id, key, devices, send };
}

const message = async (key: string, id: string) => (await app.request('GET', `/v1/messages/${id}`, { key })).body;

describe('status reports', () => {
  it('moves a message along claimed → sending → sent → delivered with timestamps and device events', async () => {
    const { orgId, key, devices, send } = await setup();
    const [id] = await send();
    await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 1);
    for (const status of ['sending', 'sent', 'delivered'] as const) {
      const [outcome] = await writeReports(app.ctx, [{ deviceId: devices[0]!, report: { messageId: id!, status } }]);
      expect(outcome).toEqual({ messageId: id, status });
    }
    const m = await message(key, id!);
    expect(m).toMatchObject({ status: 'delivered', deviceId: devices[0] });
    expect(m.claimedAt && m.sentAt && m.deliveredAt).toBeTruthy();
    expect(m.events.map((e: { toStatus: string; source: string }) => `${e.toStatus}:${e.source}`)).toEqual(['queued:api', 'claimed:device', 'sending:device', 'sent:device', 'delivered:device']);
  });

  it('acknowledges a repeated report without changing anything, and refuses a skipped step', async () => {
    const { orgId, key, devices, send } = await setup();
    const [a, b] = await send(2);
    await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 2);
    await writeReports(app.ctx, [{ deviceId: devices[0]!, report: { messageId: a!, status: 'sending' } }]);
    const [repeat] = await writeReports(app.ctx, [{ deviceId: devices[0]!, report: { messageId: a!, status: 'sending' } }]);
    expect(repeat).toEqual({ messageId: a, status: 'sending', duplicate: true });
    const [skip] = await writeReports(app.ctx, [{ deviceId: devices[0]!, report: { messageId: b!, status: 'delivered' } }]);
    expect(skip).toMatchObject({ messageId: b, error: { code: 'invalid_transition' } });
    expect((await message(key, a!)).events).toHaveLength(3);
    expect((await message(key, b!)).status).toBe('claimed');
  });

  it('lets only the phone holding a message report on it', async () => {
    const { orgId, devices, send } = await setup(2);
    const [id] = await send();
    await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 1);
    const [other] = await writeReports(app.ctx, [{ deviceId: devices[1]!, report: { messageId: id!, status: 'sending' } }]);
    expect(other).toMatchObject({ error: { code: 'invalid_transition' } });
    const [unknownId] = await writeReports(app.ctx, [{ deviceId: devices[1]!, report: { messageId: 'msg_nope', status: 'sent' } }]);
    expect(unknownId).toMatchObject({ error: { code: 'invalid_transition' } });
  });

  it('records failure codes, defaulting to generic_failure', async () => {
    const { orgId, key, devices, send } = await setup();
    const [a, b] = await send(2);
    await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 2);
    await writeReports(app.ctx, [
      { deviceId: devices[0]!, report: { messageId: a!, status: 'failed', failureCode: 'no_service' } },
      { deviceId: devices[0]!, report: { messageId: b!, status: 'failed' } },
    ]);
    expect(await message(key, a!)).toMatchObject({ status: 'failed', failureCode: 'no_service' });
    const mb = await message(key, b!);
    expect(mb).toMatchObject({ status: 'failed', failureCode: 'generic_failure' });
    expect(mb.failedAt).toBeTruthy();
  });

  it('applies several reports for one message in one batch in order', async () => {
    const { orgId, key, devices, send } = await setup();
    const [id] = await send();
    await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 1);
    const outcomes = await writeReports(
      app.ctx,
      (['sending', 'sent', 'delivered'] as const).map((status) => ({ deviceId: devices[0]!, report: { messageId: id!, status } })),
    );
    expect(outcomes.map((o) => ('status' in o ? o.status : 'error'))).toEqual(['sending', 'sent', 'delivered']);
    expect((await message(key, id!)).status).toBe('delivered');
  });

  it('uses the server time when the phone clock is off, and says so', async () => {
    const { orgId, key, devices, send } = await setup();
    const [id] = await send();
    await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 1);
    const [o] = await writeReports(app.ctx, [{ deviceId: devices[0]!, report: { messageId: id!, status: 'sending', at: '2020-01-01T00:00:00Z' } }]);
    expect(o).toMatchObject({ status: 'sending', warning: { code: 'clock_skew' } });
    const ev = (await message(key, id!)).events.at(-1);
    expect(Math.abs(new Date(ev.at).getTime() - Date.now())).toBeLessThan(60_000);
  });
});

describe('sweeps', () => {
  it('expires messages still queued at expiresAt and takes them off the queue', async () => {
    const { orgId, key, devices, send } = await setup();
    const [id] = await send();
    await app.ctx.db.query(`UPDATE messages SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    expect(await expireQueued(app.ctx)).toBeGreaterThanOrEqual(1);
    expect((await message(key, id!)).status).toBe('expired');
    expect(await app.ctx.redis.zscore(app.ctx.keys.org(orgId).orgQueue(), id!)).toBeNull();
    expect((await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 5)).jobs).toHaveLength(0);
  });

  it('marks held messages unknown when the phone stays silent', async () => {
    const { orgId, key, devices, send } = await setup();
    const [a, b] = await send(2);
    await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 2);
    await app.ctx.db.query(`UPDATE messages SET updated_at = now() - interval '61 seconds' WHERE id = $1`, [a]);
    await markSilentUnknown(app.ctx);
    expect(await message(key, a!)).toMatchObject({ status: 'unknown' });
    expect((await message(key, a!)).events.at(-1)).toMatchObject({ toStatus: 'unknown', source: 'system', code: 'no_report' });
    expect((await message(key, b!)).status).toBe('claimed');
  });

  it('puts back messages whose claim was never confirmed (the process died mid-claim)', async () => {
    const { orgId, devices, send } = await setup();
    const [id] = await send();
    const k = app.ctx.keys.org(orgId);
    // The Redis half of a claim, without the Postgres half.
    await claimInRedisOnly(app.ctx, orgId, devices[0]!);
    expect((await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 5)).jobs).toHaveLength(0);
    await app.ctx.redis.zadd(k.claiming(), Date.now() - 60_000, id!);
    expect(await recoverInterruptedClaims(app.ctx)).toBeGreaterThanOrEqual(1);
    const r = await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 5);
    expect(r.jobs.map((j) => j.messageId)).toEqual([id]);
  });

  it('puts back unconfirmed claims of organizations beyond the first round trip of the sweep', async () => {
    // Organizations whose ids sort before every real one, so the two below come after 500 others.
    const tag = randomBytes(4).toString('hex').toUpperCase();
    await app.ctx.db.query(`INSERT INTO organizations (id, name) SELECT 'org_0000' || $1 || lpad(g::text, 4, '0'), 'sweep-' || $1 || '-' || g FROM generate_series(1, 520) g`, [tag]);
    try {
      const stuck: { orgId: string; deviceId: string; id: string }[] = [];
      for (let i = 0; i < 2; i++) {
        const { orgId, devices, send } = await setup();
        const [id] = await send();
        const k = app.ctx.keys.org(orgId);
        await claimInRedisOnly(app.ctx, orgId, devices[0]!);
        await app.ctx.redis.zadd(k.claiming(), Date.now() - 60_000, id!);
        stuck.push({ orgId, deviceId: devices[0]!, id: id! });
      }
      expect(await recoverInterruptedClaims(app.ctx)).toBeGreaterThanOrEqual(2);
      for (const s of stuck) {
        expect((await app.ctx.dispatch.claim({ orgId: s.orgId, deviceId: s.deviceId }, 5)).jobs.map((j) => j.messageId)).toEqual([s.id]);
      }
    } finally {
      await app.ctx.db.query(`DELETE FROM organizations WHERE id LIKE 'org_0000' || $1 || '%'`, [tag]);
    }
  });
});

describe('Redis losing its data', () => {
  it('rebuilds the queues from Postgres: every queued message still goes out, once', async () => {
    const { orgId, devices, send } = await setup(3);
    const ids = await send(60);
    const early = await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 10);
    expect(early.jobs).toHaveLength(10);
    await flushPrefix(app.ctx);
    // Every organization's queued messages are rebuilt (other test files share this database).
    expect(await app.ctx.dispatch.rebuildIfLost()).toBeGreaterThanOrEqual(50);
    expect(await app.ctx.dispatch.rebuildIfLost()).toBe(0);
    const seen = new Set(early.jobs.map((j) => j.messageId));
    for (;;) {
      const rs = await Promise.all(devices.map((deviceId) => app.ctx.dispatch.claim({ orgId, deviceId }, 7)));
      const jobs = rs.flatMap((r) => r.jobs);
      if (jobs.length === 0) break;
      for (const j of jobs) {
        expect(seen.has(j.messageId)).toBe(false);
        seen.add(j.messageId);
      }
    }
    expect([...seen].sort()).toEqual([...ids].sort());
  });
});

describe('webhook events of phone reports', () => {
  it('records the subscribed message.<status> events with the whole message, and only those', async () => {
    const { orgId, devices, send } = await setup();
    await app.ctx.db.query(`INSERT INTO webhook_endpoints (id, org_id, url, event_types, secret) VALUES ($1, $2, 'https://example.com/hook', $3, 'whsec_test')`, [
      `whe_t${Date.now()}`,
      orgId,
      ['message.sent', 'message.delivered'],
    ]);
    const [id] = await send();
    await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 1);
    for (const status of ['sending', 'sent', 'delivered'] as const) {
      await writeReports(app.ctx, [{ deviceId: devices[0]!, report: { messageId: id!, status } }]);
    }
    const { rows } = await app.ctx.db.query(`SELECT type, payload FROM events WHERE org_id = $1 AND payload->'data'->>'id' = $2 ORDER BY id`, [orgId, id]);
    expect(rows.map((r) => r.type)).toEqual(['message.sent', 'message.delivered']);
    expect(rows[0].payload.data).toMatchObject({ id, status: 'sent', deviceId: devices[0], to: '+261342000000', body: 'hello' });
    expect(rows[0].payload.data.sentAt).toBeTruthy();
    expect(rows[1].payload.data).toMatchObject({ status: 'delivered' });
  });
});
