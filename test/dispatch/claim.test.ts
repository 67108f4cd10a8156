import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { syncDeviceState } from '../../src/dispatch-queue/device-state.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function orgWithPhones(n: number, opts: { pacing?: number; sims?: number[] } = {}) {
  const { org, key } = await app.createOrg({ dailyLimit: 100_000 });
  const devices: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = await insertTestDevice(app.ctx, org.id, { sims: opts.sims });
    if (opts.pacing) await app.ctx.db.query('UPDATE devices SET pacing_per_minute = $2 WHERE id = $1', [id, opts.pacing]);
    await syncDeviceState(app.ctx, id);
    devices.push(id);
  }
  return { orgId: org.id, key, devices };
}

async function send(key: string, body: Record<string, unknown>) {
  const res = await app.request('POST', '/v1/messages', { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body as { messages: { id: string }[] };
}

const statusOf = async (id: string) => (await app.ctx.db.query('SELECT status, device_id FROM messages WHERE id = $1', [id])).rows[0];

describe('claiming', () => {
  it('hands each queued message to exactly one of many racing phones', async () => {
    const { orgId, key, devices } = await orgWithPhones(20, { pacing: 1_000_000 });
    const to = Array.from({ length: 500 }, (_, i) => `+2613400${String(i).padStart(5, '0')}`);
    for (let b = 0; b < 4; b++) await send(key, { to, body: `batch ${b}` });
    const seen = new Map<string, string>();
    let progress = true;
    while (progress) {
      const results = await Promise.all(devices.map((deviceId) => app.ctx.dispatch.claim({ orgId, deviceId }, 37)));
      progress = results.some((r) => r.jobs.length > 0);
      results.forEach((r, i) => {
        for (const job of r.jobs) {
          expect(seen.has(job.messageId), `message ${job.messageId} handed twice`).toBe(false);
          seen.set(job.messageId, devices[i]!);
        }
      });
    }
    expect(seen.size).toBe(2000);
    const { rows } = await app.ctx.db.query(`SELECT status, count(*)::int AS n FROM messages WHERE org_id = $1 GROUP BY status`, [orgId]);
    expect(rows).toEqual([{ status: 'claimed', n: 2000 }]);
    const mismatched = await app.ctx.db.query(`SELECT count(*)::int AS n FROM messages WHERE org_id = $1 AND device_id <> ALL($2::text[])`, [orgId, devices]);
    expect(mismatched.rows[0].n).toBe(0);
  });

  it('gives a pinned message only to its phone, on the SIM asked for, before the shared queue', async () => {
    const { key, orgId, devices } = await orgWithPhones(2, { pacing: 1000, sims: [1, 2] });
    const shared = await send(key, { to: '+261340000001', body: 'anyone' });
    const pinned = await send(key, { to: '+261340000002', body: 'only phone B, SIM 2', deviceId: devices[1], simSubscriptionId: 2 });
    const a = await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 10);
    expect(a.jobs.map((j) => j.messageId)).toEqual([shared.messages[0]!.id]);
    const b = await app.ctx.dispatch.claim({ orgId, deviceId: devices[1]! }, 10);
    expect(b.jobs).toHaveLength(1);
    expect(b.jobs[0]).toMatchObject({ messageId: pinned.messages[0]!.id, simSubscriptionId: 2, body: 'only phone B, SIM 2', to: '+261340000002' });
    expect(await statusOf(pinned.messages[0]!.id)).toEqual({ status: 'claimed', device_id: devices[1] });
  });

  it("uses the phone's default SIM when the message names none", async () => {
    const { key, orgId, devices } = await orgWithPhones(1, { pacing: 1000, sims: [3, 4] });
    await app.ctx.db.query('UPDATE devices SET default_sim_subscription_id = 4 WHERE id = $1', [devices[0]]);
    await syncDeviceState(app.ctx, devices[0]!);
    await send(key, { to: '+261340000003', body: 'default sim' });
    const r = await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 10);
    expect(r.jobs[0]!.simSubscriptionId).toBe(4);
    const row = await app.ctx.db.query('SELECT sim_subscription_id FROM messages WHERE id = $1', [r.jobs[0]!.messageId]);
    expect(row.rows[0].sim_subscription_id).toBe(4);
  });

  it('gives nothing to a draining phone or one with outbound disabled, and refuses a revoked one', async () => {
    const { key, orgId, devices } = await orgWithPhones(3, { pacing: 1000 });
    await send(key, { to: '+261340000004', body: 'wait' });
    await app.ctx.db.query('UPDATE devices SET draining = true WHERE id = $1', [devices[0]]);
    await app.ctx.db.query('UPDATE devices SET outbound_enabled = false WHERE id = $1', [devices[1]]);
    await app.ctx.db.query(`UPDATE devices SET revoked_at = now() WHERE id = $1`, [devices[2]]);
    for (const d of devices) await syncDeviceState(app.ctx, d);
    expect(await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 10)).toMatchObject({ jobs: [], refused: 'not_sending' });
    expect(await app.ctx.dispatch.claim({ orgId, deviceId: devices[1]! }, 10)).toMatchObject({ jobs: [], refused: 'not_sending' });
    expect(await app.ctx.dispatch.claim({ orgId, deviceId: devices[2]! }, 10)).toMatchObject({ jobs: [], refused: 'revoked' });
  });

  it('paces a phone by parts over a rolling minute and says when to come back', async () => {
    const { key, orgId, devices } = await orgWithPhones(1, { pacing: 5 });
    const long = 'x'.repeat(300); // 2 segments
    await send(key, { to: Array.from({ length: 6 }, (_, i) => `+26134111000${i}`), body: long });
    const first = await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 10);
    expect(first.jobs).toHaveLength(2); // 4 of 5 segments; a third would make 6
    expect(first.retryAfterMs).toBeGreaterThan(0);
    expect(first.retryAfterMs).toBeLessThanOrEqual(60_000);
    const again = await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 10);
    expect(again.jobs).toHaveLength(0);
    expect(again.retryAfterMs).toBeGreaterThan(0);
  });

  it('reloads phone state from Postgres when Redis lost it', async () => {
    const { key, orgId, devices } = await orgWithPhones(1, { pacing: 1000 });
    await send(key, { to: '+261340000005', body: 'after flush' });
    await app.ctx.redis.del(app.ctx.keys.org(orgId).deviceState(devices[0]!));
    const r = await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 10);
    expect(r.jobs).toHaveLength(1);
  });

  it('gives nothing to a device Postgres does not know either', async () => {
    const { key, orgId } = await orgWithPhones(1, { pacing: 1000 });
    await send(key, { to: '+261340000008', body: 'for a real phone' });
    expect(await app.ctx.dispatch.claim({ orgId, deviceId: 'dev_unknown' }, 10)).toEqual({ jobs: [], retryAfterMs: 0, refused: 'not_sending' });
  });

  it('does not hand out a message cancelled after it was queued', async () => {
    const { key, orgId, devices } = await orgWithPhones(1, { pacing: 1000 });
    const sent = await send(key, { to: '+261340000006', body: 'cancel me' });
    const cancel = await app.request('POST', `/v1/messages/${sent.messages[0]!.id}/cancel`, { key });
    expect(cancel.status).toBe(200);
    const r = await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 10);
    expect(r.jobs).toHaveLength(0);
    expect((await statusOf(sent.messages[0]!.id)).status).toBe('cancelled');
  });
});

describe('claiming against a revocation', () => {
  it('gives nothing to a phone revoked in Postgres before Redis heard of it, and keeps the message for others', async () => {
    const { key, orgId, devices } = await orgWithPhones(2, { pacing: 1000 });
    const sent = await send(key, { to: '+261340000007', body: 'race' });
    await app.ctx.db.query('UPDATE devices SET revoked_at = now() WHERE id = $1', [devices[0]]); // Redis still says live
    expect(await app.ctx.dispatch.claim({ orgId, deviceId: devices[0]! }, 5)).toMatchObject({ jobs: [], refused: 'revoked' });
    const other = await app.ctx.dispatch.claim({ orgId, deviceId: devices[1]! }, 5);
    expect(other.jobs.map((j) => j.messageId)).toEqual([sent.messages[0]!.id]);
  });
});
