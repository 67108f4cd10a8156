import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { startTestApp, type TestApp } from '../support/harness.js';
import { pairTestPhone, eventually, type TestPhone } from '../support/phones.js';
import { pickFreePort } from '../../src/launcher/free-port.js';
import { expirePresence } from '../../src/devices/presence.js';

/**
 * Presence expires with the API process holding the socket: a phone on a process killed without
 * closing anything goes offline once that process's lease lapses and the worker's sweep runs,
 * while phones on live processes stay online (the lease is 2 s here, 30 s by default).
 */
const LEASE_SECONDS = 2;
let a: TestApp;
let child: ChildProcess;
let childUrl: string;
let key: string;
let orgId: string;
const phones: TestPhone[] = [];

beforeAll(async () => {
  a = await startTestApp({ presenceLeaseSeconds: LEASE_SECONDS, onlineWindowSeconds: 1 });
  ({
    org: { id: orgId },
    key,
  } = await a.createOrg());
  const port = await pickFreePort();
  childUrl = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', 'api'], {
    env: {
      ...process.env,
      DATABASE_URL: a.ctx.config.databaseUrl,
      REDIS_URL: a.ctx.config.redisUrl,
      HAFATRA_REDIS_PREFIX: a.ctx.config.redisPrefix,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      HAFATRA_PRESENCE_LEASE_SECONDS: String(LEASE_SECONDS),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await eventually(
    async () =>
      await fetch(`${childUrl}/openapi.json`).then(
        (r) => r.ok,
        () => false,
      ),
    30_000,
    'the second API process',
  );
}, 60_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  await Promise.all(phones.map((p) => p.client.close()));
  await a?.close();
});

const device = async (id: string) => (await a.request('GET', `/v1/devices/${id}`, { key })).body;

async function connectedPhone(baseUrl: string): Promise<TestPhone> {
  const phone = await pairTestPhone(a, orgId, { client: { baseUrl } });
  phones.push(phone);
  await phone.client.connect();
  await eventually(async () => (await device(phone.deviceId)).socket.connected === true, 10_000, 'the phone online');
  return phone;
}

it('marks offline the phones of a killed API process once its lease lapses; phones on live processes stay online', async () => {
  const orphan = await connectedPhone(childUrl);
  const live = await connectedPhone(a.url);

  child.kill('SIGKILL');
  const killedAt = Date.now();
  await new Promise((resolve) => child.once('exit', resolve));
  // The worker's sweep, run here as often as the check (the worker runs it every HAFATRA_SWEEP_INTERVAL_MS).
  await eventually(
    async () => {
      await expirePresence(a.ctx);
      return (await device(orphan.deviceId)).socket.connected === false;
    },
    30_000,
    'the phone of the killed process offline',
  );
  const offlineAfterMs = Date.now() - killedAt;
  console.log(`a phone on a killed API process read connected for ${offlineAfterMs} ms with a ${LEASE_SECONDS} s lease`);
  expect(offlineAfterMs).toBeLessThan(30_000);
  expect(await device(orphan.deviceId)).toMatchObject({ status: 'stale', socket: { connected: false } });

  // Sweeps long past a lease leave the live process's phone alone: its lease is renewed.
  const past = Date.now() + 2 * LEASE_SECONDS * 1000;
  await eventually(
    async () => {
      await expirePresence(a.ctx);
      return Date.now() > past;
    },
    30_000,
    'two leases',
  );
  expect(await device(live.deviceId)).toMatchObject({ status: 'online', socket: { connected: true } });
}, 90_000);

it('a live process whose lease lapsed (Postgres down, a stall) marks its phones connected again at its next renewal', async () => {
  const phone = await connectedPhone(a.url);
  // The process renews its lease on its own timer: a renewal landing between the lapse and the
  // sweep leaves the phone connected, so the lapse is made again until a sweep sees it.
  await eventually(
    async () => {
      await a.ctx.db.query(`UPDATE api_processes SET lease_until = now() - interval '1 second' WHERE id = (SELECT socket_process_id FROM devices WHERE id = $1)`, [phone.deviceId]);
      await expirePresence(a.ctx);
      return (await device(phone.deviceId)).socket.connected === false;
    },
    15_000,
    'the phone of the lapsed process offline',
  );
  await eventually(async () => (await device(phone.deviceId)).socket.connected === true, 15_000, 'the phone connected again');
}, 30_000);

it('a clean shutdown marks its phones offline at once, without waiting for the sweep', async () => {
  const other = await startTestApp({ presenceLeaseSeconds: 3600 });
  const phone = await pairTestPhone(a, orgId, { client: { baseUrl: other.url } });
  phones.push(phone);
  await phone.client.connect();
  await eventually(async () => (await device(phone.deviceId)).socket.connected === true, 10_000, 'the phone online');
  await other.close();
  await eventually(async () => (await device(phone.deviceId)).socket.connected === false, 10_000, 'the phone offline');
}, 30_000);
