import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { SCOPES } from '../../src/auth/principal.js';
import { startOwnRedis, type OwnRedis } from '../support/own-redis.js';
import { insertTestDevice } from '../support/devices.js';
import { eventually } from '../support/phones.js';
import { BOUND_MS, expectToRideOut, timed } from '../support/outage.js';
import { expectError } from './expect-error.js';

/**
 * Redis stopped or killed under an API with sends in flight: requests fail fast with 500 in the
 * error shape (nothing waits in an offline queue), the process lives, and it serves again once
 * Redis is back, without a restart.
 */
let redis: OwnRedis;
let app: TestApp;
let key: string;
let deviceId: string;

beforeAll(async () => {
  redis = await startOwnRedis();
  app = await startTestApp({ redisUrl: redis.url });
  const created = await app.createOrg({ dailyLimit: 100_000 });
  // Six loops hammer the API across the outage: the key's own rate limit must not answer them.
  key = (await app.createKey(created.org.id, SCOPES, { ratePerSecond: 100_000, rateBurst: 100_000 })).key;
  deviceId = await insertTestDevice(app.ctx, created.org.id);
}, 60_000);

afterAll(async () => {
  await redis?.thaw().catch(() => undefined); // a frozen Redis would outlast its SIGTERM
  await app?.close();
  await redis?.destroy();
});

const send = () => app.request('POST', '/v1/messages', { key, body: { to: '+261340000002', body: 'Salama', deviceId } });
const list = () => app.request('GET', '/v1/messages?limit=5', { key });

describe.each([
  ['stopped', () => redis.stop()],
  ['killed (kill -9)', () => redis.kill9()],
])('Redis %s', (name, fault) => {
  it('answers 500 within a bounded time while down and serves again once it is back, with no restart', async () => {
    await expectToRideOut({ name: `Redis ${name}`, send, list, fault, restart: () => redis.start() });
  }, 120_000);
});

it('answers 500 within a bounded time while Redis accepts connections but answers nothing, and recovers when it answers again', async () => {
  expect((await send()).status).toBe(202);
  await redis.freeze();
  try {
    // Each command gives up after 10 s (nothing waits for ever); the request then answers.
    const stalled = await timed(send);
    expectError(stalled, 500, 'internal_error');
    expect(stalled.headers.get('retry-after')).toBe('1');
    expect(stalled.ms).toBeLessThan(BOUND_MS + 5_000);
  } finally {
    await redis.thaw();
  }
  await eventually(async () => (await send()).status === 202, 15_000, 'the API serving again');
}, 60_000);
