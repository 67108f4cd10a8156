import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { startApiProcess, type ApiProcess } from '../support/api-process.js';
import { insertTestDevice } from '../support/devices.js';
import { pairTestPhone, sendMessages, eventually, type TestPhone } from '../support/phones.js';
import { writeReports } from '../../src/dispatch/status-reports.js';
import { syncDeviceState } from '../../src/dispatch-queue/device-state.js';
import { withdrawStuckClaims } from '../../src/dispatch/withdraw-jobs.js';
import { DeviceProtocolError, type Job } from '../../src/phone/protocol.js';
import { SimulatedPhone } from '../../src/phone/simulated-phone.js';

/**
 * Jobs leave a phone that cannot send them: claimed and not acknowledged `sending` within the
 * claim timeout, held by a phone gone silent, or by a phone that hit Android's limit. Postgres
 * decides between the withdrawal and the phone's `sending`, so no message is sent twice.
 */
const clock = { t: Date.now(), now: () => clock.t };
let app: TestApp;
let other: ApiProcess;

beforeAll(async () => {
  app = await startTestApp({ claimTimeoutSeconds: 60, silentPhoneSeconds: 20, limitCooldownSeconds: 60 }, undefined, clock);
  other = await startApiProcess(app);
}, 30_000);
// Each test starts on the wall clock (claims are stamped with it) and moves ahead from there.
beforeEach(() => {
  clock.t = Date.now();
});
afterAll(async () => {
  other?.stop();
  await app?.close();
});

const timeline = async (id: string) =>
  (await app.ctx.db.query('SELECT to_status AS "to", code, device_id AS "deviceId" FROM message_events WHERE message_id = $1 ORDER BY id', [id])).rows as {
    to: string;
    code: string | null;
    deviceId: string | null;
  }[];
const messageRow = async (id: string) =>
  (await app.ctx.db.query('SELECT status, device_id AS "deviceId", sim_subscription_id AS sim FROM messages WHERE id = $1', [id])).rows[0] as {
    status: string;
    deviceId: string | null;
    sim: number | null;
  };

/** Of these messages, those withdrawn (queued again, by a claim_timeout, phone_silent or phone_limited event), in order. */
async function queuedAgain(ids: string[]): Promise<string[]> {
  const { rows } = await app.ctx.db.query(`SELECT DISTINCT message_id AS id FROM message_events WHERE message_id = ANY($1::text[]) AND to_status = 'queued' AND code IS NOT NULL`, [ids]);
  const back = new Set(rows.map((r) => r.id as string));
  return ids.filter((id) => back.has(id));
}

async function unpacedDevice(orgId: string): Promise<string> {
  const id = await insertTestDevice(app.ctx, orgId);
  await app.ctx.db.query('UPDATE devices SET pacing_per_minute = 100000 WHERE id = $1', [id]);
  await syncDeviceState(app.ctx, id);
  return id;
}

describe('claim timeout', () => {
  it('withdraws jobs not acknowledged `sending` in time, refuses the late `sending`, and gives them to another phone first', async () => {
    const { org, key } = await app.createOrg();
    const slow = await insertTestDevice(app.ctx, org.id, { sims: [2] });
    const ids = await sendMessages(app, key, 3);
    const claimSlow = () => app.ctx.dispatch.claim({ orgId: org.id, deviceId: slow }, 10);
    expect((await claimSlow()).jobs.map((j) => j.messageId)).toEqual(ids);
    await writeReports(app.ctx, [{ deviceId: slow, report: { messageId: ids[0]!, status: 'sending' } }]);

    clock.t += 59_000;
    await withdrawStuckClaims(app.ctx);
    expect(await queuedAgain(ids)).toEqual([]);
    clock.t += 2_000;
    await withdrawStuckClaims(app.ctx);
    expect(await queuedAgain(ids)).toEqual(ids.slice(1));

    // The acknowledged `sending` keeps its message with the phone; the others are queued again.
    expect(await messageRow(ids[0]!)).toMatchObject({ status: 'sending', deviceId: slow });
    for (const id of ids.slice(1)) {
      expect(await messageRow(id)).toEqual({ status: 'queued', deviceId: null, sim: null });
      expect((await timeline(id)).map((e) => [e.to, e.code, e.deviceId])).toEqual([
        ['claimed', 'sim_default', slow],
        ['queued', 'claim_timeout', slow],
      ]);
    }
    const [late] = await writeReports(app.ctx, [{ deviceId: slow, report: { messageId: ids[1]!, status: 'sending' } }]);
    expect(late).toMatchObject({ error: { code: 'invalid_transition' } });

    // The slow phone gets them back only after the other phones had their chance.
    expect((await claimSlow()).jobs).toEqual([]);
    const fresh = await insertTestDevice(app.ctx, org.id);
    const taken = await app.ctx.dispatch.claim({ orgId: org.id, deviceId: fresh }, 10);
    expect(taken.jobs.map((j) => j.messageId)).toEqual(ids.slice(1));
    expect(await messageRow(ids[1]!)).toMatchObject({ status: 'claimed', deviceId: fresh });
  });

  it('lets the same phone take a withdrawn job again once the others had a minute, and never withdraws a pinned one', async () => {
    const { org, key } = await app.createOrg();
    const only = await insertTestDevice(app.ctx, org.id);
    const [loose] = await sendMessages(app, key, 1);
    const pinned = (await app.request('POST', '/v1/messages', { key, body: { to: '+261340000009', body: 'x', deviceId: only } })).body.messages[0].id;
    expect((await app.ctx.dispatch.claim({ orgId: org.id, deviceId: only }, 10)).jobs).toHaveLength(2);
    clock.t += 61_000;
    await withdrawStuckClaims(app.ctx);
    expect(await queuedAgain([loose!, pinned])).toEqual([loose]);
    expect(await messageRow(pinned)).toMatchObject({ status: 'claimed', deviceId: only });
    expect((await app.ctx.dispatch.claim({ orgId: org.id, deviceId: only }, 10)).jobs).toEqual([]);
    clock.t += 60_001;
    expect((await app.ctx.dispatch.claim({ orgId: org.id, deviceId: only }, 10)).jobs.map((j) => j.messageId)).toEqual([loose]);
  });

  it('survives a withdrawal cut short after Postgres: the claiming-set sweep queues the message again', async () => {
    const { org, key } = await app.createOrg();
    const phone = await insertTestDevice(app.ctx, org.id);
    const [id] = await sendMessages(app, key, 1);
    await app.ctx.dispatch.claim({ orgId: org.id, deviceId: phone }, 10);
    const k = app.ctx.keys.org(org.id);
    // As if the process died after moving the message in Postgres: held in the claiming set, not queued.
    const requeue = app.ctx.dispatch.requeue.bind(app.ctx.dispatch);
    app.ctx.dispatch.requeue = async (orgId, entries, decide) => {
      const its = app.ctx.keys.org(orgId);
      const hold = app.ctx.redis.multi();
      for (const e of entries) hold.hset(its.queueMeta(), e.id, e.meta).zadd(its.claiming(), Date.now() - 31_000, e.id);
      await hold.exec();
      return [...(await decide())];
    };
    clock.t += 61_000;
    try {
      await withdrawStuckClaims(app.ctx);
      expect(await queuedAgain([id!])).toEqual([id]);
    } finally {
      app.ctx.dispatch.requeue = requeue;
    }
    expect(await app.ctx.redis.zscore(k.orgQueue(), id!)).toBeNull();
    const { recoverInterruptedClaims } = await import('../../src/dispatch/sweeps.js');
    expect(await recoverInterruptedClaims(app.ctx)).toBeGreaterThanOrEqual(1);
    expect(await app.ctx.redis.zscore(k.orgQueue(), id!)).not.toBeNull();
    const fresh = await insertTestDevice(app.ctx, org.id);
    expect((await app.ctx.dispatch.claim({ orgId: org.id, deviceId: fresh }, 10)).jobs.map((j) => j.messageId)).toEqual([id]);
  });
});

describe('phones on sockets', () => {
  /** A phone that records the jobs it was given and the ids it was told were withdrawn; it reports nothing by itself. */
  async function phoneOn(orgId: string, baseUrl = app.url) {
    const got: Job[] = [];
    const withdrawn: string[] = [];
    const phone: TestPhone = await pairTestPhone(app, orgId, {
      pacingPerMinute: 100_000,
      client: { baseUrl, onJobs: (jobs) => got.push(...jobs), onWithdrawn: (ids) => withdrawn.push(...ids) },
    });
    await phone.client.connect();
    return { ...phone, got, withdrawn };
  }

  /** Reports `sending` then `sent`; false when `sending` was refused (the job was withdrawn). */
  async function send(phone: TestPhone, id: string): Promise<boolean> {
    try {
      await phone.client.reportStatus({ messageId: id, status: 'sending' });
    } catch (err) {
      if (err instanceof DeviceProtocolError && err.code === 'invalid_transition') return false;
      throw err;
    }
    await phone.client.reportStatus({ messageId: id, status: 'sent' });
    return true;
  }

  it('moves the jobs of a phone gone silent to a phone on another API process, which sends each once', async () => {
    const { org, key } = await app.createOrg();
    const silent = await phoneOn(org.id);
    const ids = await sendMessages(app, key, 20);
    await eventually(() => silent.got.length === 20, 5000, 'jobs pushed to the first phone');
    await silent.client.close();
    await eventually(async () => !(await app.ctx.db.query('SELECT socket_connected FROM devices WHERE id = $1', [silent.deviceId])).rows[0].socket_connected);

    const rescuer = await phoneOn(org.id, other.url);
    clock.t += 21_000;
    await withdrawStuckClaims(app.ctx);
    await eventually(() => rescuer.got.length === 20, 5000, 'withdrawn jobs pushed to the phone on the other process');
    expect(new Set(rescuer.got.map((j) => j.messageId))).toEqual(new Set(ids));
    for (const id of ids) expect(await send(rescuer, id)).toBe(true);
    const { rows } = await app.ctx.db.query(
      `SELECT m.status, m.device_id AS "deviceId", (SELECT count(*)::int FROM message_events e WHERE e.message_id = m.id AND e.to_status = 'sending') AS sendings,
         (SELECT code FROM message_events e WHERE e.message_id = m.id AND e.to_status = 'queued' AND e.code IS NOT NULL) AS code
       FROM messages m WHERE m.id = ANY($1::text[])`,
      [ids],
    );
    expect(rows).toHaveLength(20);
    for (const r of rows) expect(r).toEqual({ status: 'sent', deviceId: rescuer.deviceId, sendings: 1, code: 'phone_silent' });
    await rescuer.client.close();
  });

  it('tells a connected phone which jobs were withdrawn, and a race of its `sending` reports with the withdrawal leaves every message with one phone', async () => {
    const { org, key } = await app.createOrg();
    const racer = await phoneOn(org.id, other.url);
    const ids = await sendMessages(app, key, 60);
    await eventually(() => racer.got.length === 60, 5000, 'jobs pushed');
    clock.t += 61_000;
    // The phone starts every job while the sweep withdraws them: each goes one way or the other.
    const [started] = await Promise.all([Promise.all(ids.map((id) => send(racer, id))), withdrawStuckClaims(app.ctx)]);
    const kept = ids.filter((_, i) => started[i]);
    const lost = ids.filter((_, i) => !started[i]);
    expect(await queuedAgain(ids)).toEqual(lost);
    // The socket was told about exactly the withdrawn ones (those it had not started in time).
    await eventually(() => racer.withdrawn.length === lost.length, 5000, 'withdrawn frame');
    expect(new Set(racer.withdrawn)).toEqual(new Set(lost));

    const rescuer = await unpacedDevice(org.id);
    const second = await app.ctx.dispatch.claim({ orgId: org.id, deviceId: rescuer }, 100);
    expect(new Set(second.jobs.map((j) => j.messageId))).toEqual(new Set(lost));
    const { rows } = await app.ctx.db.query('SELECT id, status, device_id AS "deviceId" FROM messages WHERE id = ANY($1::text[])', [ids]);
    for (const r of rows) {
      if (kept.includes(r.id)) expect(r).toMatchObject({ status: 'sent', deviceId: racer.deviceId });
      else expect(r).toMatchObject({ status: 'claimed', deviceId: rescuer });
    }
    await racer.client.close();
  });
});

it('makes the simulated phone drop the jobs withdrawn before it started them, and send none of them', async () => {
  const { org, key } = await app.createOrg();
  const paired = await pairTestPhone(app, org.id, { pacingPerMinute: 100_000 });
  // One job on the air for a long while; the other four wait on the phone.
  const phone = new SimulatedPhone({ baseUrl: app.url, token: paired.token, latencyMs: 60_000, latencyJitter: 0, concurrency: 1, failureRate: 0, heartbeatIntervalMs: 3_600_000 });
  await phone.start();
  try {
    const ids = await sendMessages(app, key, 5);
    await eventually(async () => (await messageRow(ids[0]!)).status === 'sending' || undefined, 5000, 'the first job on the air');
    clock.t += 61_000;
    await withdrawStuckClaims(app.ctx);
    expect(await queuedAgain(ids)).toEqual(ids.slice(1));
    await eventually(() => phone.counters.withdrawn === 4, 5000, 'the four dropped');
    const { rows } = await app.ctx.db.query(`SELECT count(*)::int AS n FROM message_events WHERE message_id = ANY($1::text[]) AND to_status = 'sending'`, [ids]);
    expect(rows[0].n).toBe(1);
  } finally {
    await phone.stop();
  }
});

it("takes back a limited phone's unstarted jobs at once for the other phones", async () => {
  const { org, key } = await app.createOrg();
  const limited = await insertTestDevice(app.ctx, org.id);
  const ids = await sendMessages(app, key, 4);
  expect((await app.ctx.dispatch.claim({ orgId: org.id, deviceId: limited }, 10)).jobs).toHaveLength(4);
  await writeReports(app.ctx, [{ deviceId: limited, report: { messageId: ids[0]!, status: 'sending' } }]);
  await writeReports(app.ctx, [{ deviceId: limited, report: { messageId: ids[0]!, status: 'failed', failureCode: 'limit_exceeded' } }]);
  for (const id of ids.slice(1)) expect((await timeline(id)).at(-1)).toEqual({ to: 'queued', code: 'phone_limited', deviceId: limited });
  const other = await insertTestDevice(app.ctx, org.id);
  expect((await app.ctx.dispatch.claim({ orgId: org.id, deviceId: other }, 10)).jobs.map((j) => j.messageId)).toEqual(ids.slice(1));
});
