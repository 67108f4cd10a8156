import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPhoneTestApp, pairTestPhone, sendMessages, eventually, type PhoneTestApp } from '../support/phones.js';
import { Fleet } from '../../src/phone/fleet.js';
import { SimulatedPhone, nowMs } from '../../src/phone/simulated-phone.js';
import { createPairingCode } from '../../src/devices/pairing.js';
import { deviceOperations } from '../../src/app/device-operations.js';
import type { AppContext } from '../../src/context/app-context.js';
import { MOBILE_MONEY_SAMPLES } from '../../src/phone/sample-sms.js';

/** Whether this server takes `incoming` frames on the socket (the operation is wired in src/app). */
const socketTakesIncoming = deviceOperations({} as AppContext).incoming !== undefined;

let app: PhoneTestApp;
beforeAll(async () => {
  app = await startPhoneTestApp({ pgPoolSize: 20 });
});
afterAll(() => app.close());

const PHONES = 20;
const MESSAGES = 5000;
const BATCH = 500;

/** A seeded generator, so a failing run can be replayed. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

async function statusCounts(orgId: string): Promise<Record<string, number>> {
  const { rows } = await app.ctx.db.query('SELECT status, count(*)::int AS n FROM messages WHERE org_id = $1 GROUP BY status', [orgId]);
  return Object.fromEntries(rows.map((r: { status: string; n: number }) => [r.status, r.n]));
}

describe('a fleet of simulated phones', () => {
  it(`${PHONES} phones racing for ${MESSAGES} messages get each exactly once and take all of them to delivered or failed`, async () => {
    // No carrier routing: every recipient is on Telma and the simulated SIMs are on any network,
    // so the phones without a Telma SIM would only take what waited 20 s (routing is tested in
    // test/dispatch/carrier-routing.test.ts); here every phone races for every message.
    const { org, key } = await app.createOrg({ dailyLimit: 100_000, carriers: [] });
    const tokens: string[] = [];
    for (let i = 0; i < PHONES; i++) tokens.push((await pairTestPhone(app, org.id, { pacingPerMinute: 100_000 })).token);
    const fleet = await Fleet.start({
      baseUrl: app.url,
      tokens,
      latencyMs: 0,
      failureRate: 0.05,
      deliveryRate: 1,
      deliveryDelayMs: 0,
      concurrency: 50,
      heartbeatIntervalMs: 0,
      random: seeded(7),
    });
    try {
      const started = nowMs();
      const postedAt = new Map<string, number>();
      const ids: string[] = [];
      // Phones take jobs while later batches are still being accepted.
      for (let i = 0; i < MESSAGES; i += BATCH) {
        const batch = await sendMessages(app, key, BATCH);
        const at = nowMs();
        for (const id of batch) postedAt.set(id, at);
        ids.push(...batch);
      }
      const postSeconds = (nowMs() - started) / 1000;
      await eventually(
        () => {
          const t = fleet.totals();
          return t.failed + t.delivered === MESSAGES && t.delivered === t.sent;
        },
        60_000,
        'every message delivered or failed',
      );
      const seconds = (nowMs() - started) / 1000;

      const owners = new Map<string, number>();
      fleet.phones.forEach((phone, i) => {
        for (const id of phone.jobArrivals.keys()) {
          expect(owners.has(id), `message ${id} reached phones ${owners.get(id)} and ${i}`).toBe(false);
          owners.set(id, i);
        }
      });
      expect([...owners.keys()].sort()).toEqual([...ids].sort());

      const totals = fleet.totals();
      expect(totals).toMatchObject({ jobsReceived: MESSAGES, errors: 0, duplicateJobs: 0 });
      expect(fleet.phones.filter((p) => p.counters.jobsReceived > 0).length).toBeGreaterThan(PHONES / 2);
      expect(await statusCounts(org.id)).toEqual({ delivered: totals.delivered, failed: totals.failed });

      const toJobs = ids.map((id) => fleet.arrivalOf(id)! - postedAt.get(id)!).sort((a, b) => a - b);
      const pct = (p: number) => toJobs[Math.min(toJobs.length - 1, Math.floor(p * toJobs.length))]!.toFixed(1);
      console.log(
        `[fleet] ${MESSAGES} messages, ${PHONES} phones: ${(MESSAGES / seconds).toFixed(0)} messages/s from POST to delivered/failed ` +
          `(${seconds.toFixed(2)} s, of which ${postSeconds.toFixed(2)} s until the last 202); 202 → jobs p50 ${pct(0.5)} ms, ` +
          `p99 ${pct(0.99)} ms; failed ${totals.failed}`,
      );
    } finally {
      await fleet.stop();
    }
  }, 120_000); // 5,000 messages through 20 phones: on a machine with one core to spare, well past 30 s

  it('pairs its phones from pairing codes and names them', async () => {
    const { org } = await app.createOrg();
    const codes = await Promise.all([1, 2].map(async () => (await createPairingCode(app.ctx, org.id)).code));
    const fleet = await Fleet.start({ baseUrl: app.url, codes, namePrefix: 'Bench phone', heartbeatIntervalMs: 0 });
    try {
      expect(fleet.totals()).toMatchObject({ phones: 2, connected: 2 });
      const { rows } = await app.ctx.db.query('SELECT name FROM devices WHERE org_id = $1 ORDER BY name', [org.id]);
      expect(rows.map((r: { name: string }) => r.name)).toEqual(['Bench phone 1', 'Bench phone 2']);
    } finally {
      await fleet.stop();
    }
  });

  it('refuses to start when a token is refused, leaving no phone connected', async () => {
    const { org } = await app.createOrg();
    const good = await pairTestPhone(app, org.id);
    const start = Fleet.start({ baseUrl: app.url, tokens: [good.token, `hfd_${'B'.repeat(43)}`], heartbeatIntervalMs: 0 });
    await expect(start).rejects.toMatchObject({ code: 'unauthorized' });
    await eventually(
      async () => {
        const { rows } = await app.ctx.db.query('SELECT socket_connected FROM devices WHERE id = $1', [good.deviceId]);
        return rows[0].socket_connected === false;
      },
      2000,
      'the good phone disconnected',
    );
  });
});

describe('a simulated phone', () => {
  async function simulated(opts: Partial<ConstructorParameters<typeof SimulatedPhone>[0]> = {}) {
    const { org, key } = await app.createOrg();
    const { token, deviceId } = await pairTestPhone(app, org.id);
    const phone = new SimulatedPhone({ baseUrl: app.url, token, latencyMs: 20, deliveryDelayMs: 20, heartbeatIntervalMs: 0, random: seeded(1), ...opts });
    await phone.start();
    return { phone, key, orgId: org.id, deviceId };
  }

  it('fails every message with generic_failure at failure rate 1', async () => {
    const { phone, key, orgId } = await simulated({ failureRate: 1 });
    try {
      const ids = await sendMessages(app, key, 3);
      await eventually(() => phone.counters.failed === 3, 5000, 'three failures');
      expect(phone.counters).toMatchObject({ sent: 0, delivered: 0, errors: 0 });
      expect(await statusCounts(orgId)).toEqual({ failed: 3 });
      const m = (await app.request('GET', `/v1/messages/${ids[0]}`, { key })).body;
      expect(m).toMatchObject({ status: 'failed', failureCode: 'generic_failure' });
    } finally {
      await phone.stop();
    }
  });

  it('leaves sent messages without a delivery report at delivery rate 0', async () => {
    const { phone, key, orgId } = await simulated({ failureRate: 0, deliveryRate: 0 });
    try {
      await sendMessages(app, key, 3);
      await eventually(() => phone.counters.sent === 3, 5000, 'three sent');
      await new Promise((r) => setTimeout(r, 100));
      expect(phone.counters.delivered).toBe(0);
      expect(await statusCounts(orgId)).toEqual({ sent: 3 });
      expect(phone.sendLatenciesMs).toHaveLength(3);
      expect(Math.min(...phone.sendLatenciesMs)).toBeGreaterThanOrEqual(9); // 20 ms ± 50 %
    } finally {
      await phone.stop();
    }
  });

  it('reports battery, network, SIM cards and the default SMS app role in its heartbeat', async () => {
    const { phone, key, deviceId } = await simulated();
    try {
      await eventually(
        async () => {
          const d = (await app.request('GET', `/v1/devices/${deviceId}`, { key })).body;
          return d.lastSeenAt && d.sims.length > 0 && d;
        },
        2000,
        'the first heartbeat',
      );
      const d = (await app.request('GET', `/v1/devices/${deviceId}`, { key })).body;
      expect(d.battery.percent).toBeGreaterThanOrEqual(0);
      expect(typeof d.battery.charging).toBe('boolean');
      expect(d.networkType).toEqual(expect.any(String));
      expect(d.appVersion).toBe('hafatra-sim/1.0');
      expect(d.sims[0]).toMatchObject({ subscriptionId: 1, countryIso: expect.stringMatching(/^mg$/i), phoneNumber: expect.stringMatching(/^\+2613\d{8}$/) });
      expect(d.inbound).toEqual({ state: 'unlocked' });
    } finally {
      await phone.stop();
    }
  });

  it.runIf(socketTakesIncoming)('receives SMS at the configured rate: personal texts and mobile-money notifications, long ones joined', async () => {
    const { phone, key, deviceId } = await simulated({ incomingPerMinute: 1200 });
    const listed = async () => (await app.request('GET', `/v1/incoming?deviceId=${deviceId}&limit=100`, { key })).body.messages as { from: string; body: string }[];
    let list: { from: string; body: string }[];
    try {
      // A notification longer than one SMS is reported in parts: wait for one to come back joined.
      list = await eventually(
        async () => {
          const l = await listed();
          return l.length >= 20 && l.some((m) => m.body.length > 160) && l;
        },
        15_000,
        'twenty received SMS, a long one among them',
      );
    } finally {
      await phone.stop();
    }
    expect(phone.counters).toMatchObject({ errors: 0, incomingLocked: 0 });
    const senders = new Set(list.map((m) => m.from));
    expect([...senders].some((f) => ['MVola', 'OrangeMoney', 'AirtelMoney'].includes(f))).toBe(true);
    expect([...senders].some((f) => /^\+2613\d{8}$/.test(f))).toBe(true);
    const known = new Set(MOBILE_MONEY_SAMPLES.map((m) => m.body));
    for (const m of list.filter((m) => m.body.length > 160)) expect(known.has(m.body), m.body).toBe(true);
  });
});
