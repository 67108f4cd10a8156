import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, pairTestPhone, sendMessages, startPhoneTestApp, type PhoneTestApp } from '../support/phones.js';
import { breakPostgres } from '../support/pg-outage.js';
import { SimulatedPhone } from '../../src/phone/simulated-phone.js';
import type { Job } from '../../src/phone/protocol.js';
import type { DeviceClient } from '../../src/phone/device-client.js';

/**
 * A short Postgres outage answers phone frames internal_error. The protocol says to send them
 * again with the same content: a phone that gave up instead left messages `sent` for good (its
 * `delivered` lost) or `unknown` although sent (its `sent` lost).
 */
let app: PhoneTestApp;
beforeAll(async () => {
  app = await startPhoneTestApp();
});
afterAll(() => app.close());

const stops: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(stops.map((stop) => stop())));

const statuses = async (ids: string[]) => {
  const { rows } = await app.ctx.db.query(`SELECT status, count(*)::int AS n FROM messages WHERE id = ANY($1) GROUP BY status ORDER BY status`, [ids]);
  return rows;
};

it('sends reports answered internal_error again, through a reconnect, until the server records them', async () => {
  const { org, key } = await app.createOrg({ dailyLimit: 10_000 });
  const jobs: Job[] = [];
  const phone = await pairTestPhone(app, org.id, {
    pacingPerMinute: 100_000,
    client: { onJobs: (j) => jobs.push(...j), retry: { minMs: 20, maxMs: 200 } },
  });
  const client: DeviceClient = phone.client;
  stops.push(() => client.close());
  await client.connect();
  const ids = await sendMessages(app, key, 30);
  await eventually(() => jobs.length === 30, 5000, 'all thirty jobs');
  await Promise.all(ids.map((id) => client.reportStatus({ messageId: id, status: 'sending' })));

  const outage = breakPostgres(app.ctx);
  let sent: Promise<unknown>[];
  try {
    sent = ids.map((id) => client.reportStatus({ messageId: id, status: 'sent' }));
    // Every report was refused at least once, and the phone is still trying.
    await eventually(() => client.stats.retries >= 30, 10_000, 'every report answered internal_error and sent again');
    // The socket drops too, and reconnecting fails while authentication cannot reach Postgres.
    const upgrades = app.upgradeAttempts;
    app.sockets.sessions.get(phone.deviceId)!.end(1001, 'server shutting down');
    await eventually(() => app.upgradeAttempts >= upgrades + 2, 10_000, 'two refused reconnects');
    expect(client.unacknowledged).toBe(30);
  } finally {
    outage.end();
  }
  const acks = await Promise.all(sent);
  expect(acks).toEqual(ids.map((messageId) => ({ messageId, status: 'sent' })));
  expect(await statuses(ids)).toEqual([{ status: 'sent', n: 30 }]);
  expect(client.stats.reconnects).toBeGreaterThanOrEqual(1);
});

it('ends every message of a simulated fleet right across an outage mid-run', async () => {
  const { org, key } = await app.createOrg({ dailyLimit: 10_000 });
  const phones: SimulatedPhone[] = [];
  for (let i = 0; i < 3; i++) {
    const { token } = await pairTestPhone(app, org.id, { pacingPerMinute: 100_000 });
    const sim = new SimulatedPhone({
      baseUrl: app.url,
      token,
      latencyMs: 150,
      deliveryDelayMs: 100,
      failureRate: 0.1,
      deliveryRate: 1,
      heartbeatIntervalMs: 0,
      reconnect: { minMs: 20, maxMs: 200 },
      random: seeded(i + 1),
      // Thirty jobs each: the work is shared by the three phones and handed out before the
      // outage (claims cut by an outage are the sweeps' business, not this test's).
      maxJobs: 30,
    });
    // The simulator's client retries with its default backoff (1 s .. 30 s): a real phone's.
    phones.push(sim);
    stops.push(() => sim.stop());
    await sim.start(5000);
  }
  const ids = await sendMessages(app, key, 90);
  const total = () => phones.reduce((n, p) => n + p.counters.sent + p.counters.failed, 0);
  await eventually(() => phones.every((p) => p.counters.jobsReceived === 30), 10_000, 'thirty jobs on each phone');
  await eventually(() => total() >= 15, 10_000, 'the first sends');

  const outage = breakPostgres(app.ctx);
  try {
    await eventually(() => phones.every((p) => p.client.stats.retries > 0), 10_000, 'reports refused and sent again on every phone');
  } finally {
    outage.end();
  }
  await eventually(() => phones.reduce((n, p) => n + p.counters.delivered + p.counters.failed, 0) === 90, 60_000, 'every message delivered or failed, as the phones saw it');
  const failed = phones.reduce((n, p) => n + p.counters.failed, 0);
  expect(phones.map((p) => p.counters.errors)).toEqual([0, 0, 0]);
  expect(await statuses(ids)).toEqual([...(90 - failed > 0 ? [{ status: 'delivered', n: 90 - failed }] : []), ...(failed > 0 ? [{ status: 'failed', n: failed }] : [])]);
}, 90_000);

/** A small deterministic generator (mulberry32): the same sends and failures on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
