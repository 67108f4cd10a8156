import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { startOwnPostgres, type OwnPostgres } from '../support/own-postgres.js';
import { pairTestPhone, eventually, type TestPhone } from '../support/phones.js';

/**
 * A phone that hangs up while Postgres is down: its close cannot be written then, and the API
 * process (alive, its lease renewed) would otherwise show it connected for ever. The close is
 * written once Postgres is back, at the next lease renewal.
 */
let pg: OwnPostgres;
let app: TestApp;
let key: string;
let phone: TestPhone;

beforeAll(async () => {
  pg = await startOwnPostgres();
  app = await startTestApp({ databaseUrl: pg.url, presenceLeaseSeconds: 2, pgConnectTimeoutMs: 2000 });
  const created = await app.createOrg();
  key = created.key;
  phone = await pairTestPhone(app, created.org.id);
}, 120_000);

afterAll(async () => {
  await phone?.client.close();
  await app?.close();
  await pg?.destroy();
});

const connected = async () => (await app.request('GET', `/v1/devices/${phone.deviceId}`, { key })).body?.socket?.connected;

it('writes a close that failed during a Postgres outage once Postgres is back', async () => {
  await phone.client.connect();
  await eventually(async () => (await connected()) === true, 10_000, 'the phone online');

  await pg.stopFast();
  await phone.client.close();
  await pg.start();
  // No worker runs here: only the API process itself can clear it.
  await eventually(async () => (await connected()) === false, 15_000, 'the close written after the outage');
  const { rows } = await app.ctx.db.query('SELECT socket_connected FROM devices WHERE id = $1', [phone.deviceId]);
  expect(rows[0].socket_connected).toBe(false);
}, 60_000);
