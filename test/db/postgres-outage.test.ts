import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { SCOPES } from '../../src/auth/principal.js';
import { startOwnPostgres, type OwnPostgres } from '../support/own-postgres.js';
import { insertTestDevice } from '../support/devices.js';
import { expectToRideOut } from '../support/outage.js';

/**
 * Postgres restarted or killed under an API with sends in flight: the process lives, requests
 * answer 500 in the error shape (with Retry-After) within a bounded time while it is down, and it
 * serves again once Postgres is back, without a restart. A connection checked out at the time (a
 * transaction in progress) used to end the process with an unhandled 'error' event.
 */
let pg: OwnPostgres;
let app: TestApp;
let key: string;
let deviceId: string;

beforeAll(async () => {
  pg = await startOwnPostgres();
  app = await startTestApp({ databaseUrl: pg.url, pgConnectTimeoutMs: 2000 });
  const created = await app.createOrg({ dailyLimit: 100_000 });
  // Six loops hammer the API while Postgres is down and answers come fast: the key's own rate
  // limit must not be what answers the burst after the restart.
  key = (await app.createKey(created.org.id, SCOPES, { ratePerSecond: 100_000, rateBurst: 100_000 })).key;
  deviceId = await insertTestDevice(app.ctx, created.org.id);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await pg?.destroy();
});

const send = () => app.request('POST', '/v1/messages', { key, body: { to: '+261340000001', body: 'Salama', deviceId } });
const list = () => app.request('GET', '/v1/messages?limit=5', { key });

describe.each([
  ['stopped (fast shutdown)', () => pg.stopFast()],
  ['killed (kill -9 of the postmaster)', () => pg.kill9()],
])('Postgres %s', (name, fault) => {
  it('answers 500 within a bounded time while down and serves again once it is back, with no restart', async () => {
    // A transaction in progress on a checked-out connection, as a send holds one.
    const held = await app.ctx.db.connect();
    await held.query('BEGIN');
    await expectToRideOut({
      name: `Postgres ${name}`,
      send,
      list,
      fault,
      restart: () => pg.start(),
      duringOutage: async () => {
        expect(
          await held.query('SELECT 1').then(
            () => 'answered',
            () => 'failed',
          ),
        ).toBe('failed');
        held.release(true);
      },
    });
  }, 120_000);
});
