import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestResponse } from '../support/harness.js';
import { startOwnPostgres, type OwnPostgres } from '../support/own-postgres.js';
import { insertTestDevice } from '../support/devices.js';
import { eventually } from '../support/phones.js';
import { expectError } from '../api/expect-error.js';

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

/** Far above what any answer takes here: an answer later than this counts as hanging. */
const BOUND_MS = 10_000;

beforeAll(async () => {
  pg = await startOwnPostgres();
  app = await startTestApp({ databaseUrl: pg.url, pgConnectTimeoutMs: 2000 });
  const created = await app.createOrg({ dailyLimit: 100_000 });
  key = created.key;
  deviceId = await insertTestDevice(app.ctx, created.org.id);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await pg?.destroy();
});

const send = () => app.request('POST', '/v1/messages', { key, body: { to: '+261340000001', body: 'Salama', deviceId } });
const list = () => app.request('GET', '/v1/messages?limit=5', { key });

async function timed(call: () => Promise<TestResponse>): Promise<TestResponse & { ms: number }> {
  const t0 = Date.now();
  const res = await call();
  return { ...res, ms: Date.now() - t0 };
}

/** Requests in a loop until stopped, every answer kept: what clients see across the outage. */
function traffic(concurrency: number) {
  const answers: (TestResponse & { ms: number })[] = [];
  let stopped = false;
  const loops = Array.from({ length: concurrency }, async (_, i) => {
    while (!stopped) answers.push(await timed(i % 2 === 0 ? send : list));
  });
  return {
    answers,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return answers;
    },
  };
}

function expectUnavailable(res: TestResponse & { ms: number }) {
  expectError(res, 500, 'internal_error');
  expect(res.headers.get('retry-after')).toBe('1');
  expect(res.ms).toBeLessThan(BOUND_MS);
}

describe.each([
  ['stopped (fast shutdown)', () => pg.stopFast()],
  ['killed (kill -9 of the postmaster)', () => pg.kill9()],
])('Postgres %s', (_name, fault) => {
  it('answers 500 within a bounded time while down and serves again once it is back, with no restart', async () => {
    const load = traffic(6);
    await eventually(() => load.answers.filter((a) => a.status === 202).length >= 5, 15_000, 'sends before the fault');
    // A transaction in progress on a checked-out connection, as a send holds one.
    const held = await app.ctx.db.connect();
    await held.query('BEGIN');

    await fault();
    const heldFails = held.query('SELECT 1').then(() => 'answered', () => 'failed');
    expect(await heldFails).toBe('failed');
    held.release(true);

    expectUnavailable(await timed(send));
    expectUnavailable(await timed(list));

    const restarting = Date.now();
    await pg.start();
    const upAt = Date.now();
    await eventually(async () => (await send()).status === 202 && (await list()).status === 200, 15_000, 'the API serving again');
    const servingAfterMs = Date.now() - upAt;
    console.log(`Postgres ${_name}: restart took ${upAt - restarting} ms; the API served again ${servingAfterMs} ms after it was up`);

    const answers = await load.stop();
    for (const a of answers) {
      if (a.status >= 500) expectUnavailable(a);
      else expect([200, 202]).toContain(a.status);
      expect(a.ms).toBeLessThan(BOUND_MS);
    }
    expect(answers.some((a) => a.status === 500)).toBe(true);
    // Nothing is left broken in the pools: a burst of requests all succeed.
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? send() : list())));
    expect(burst.map((r) => r.status).filter((s) => s >= 300)).toEqual([]);
  }, 120_000);
});
