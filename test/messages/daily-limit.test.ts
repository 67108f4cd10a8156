import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { countRows, expectError } from '../api/expect-error.js';
import { utcDay } from '../../src/redis/keys.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ pgPoolSize: 20 });
});
afterAll(() => app.close());

async function orgWithLimit(dailyLimit: number) {
  const made = await app.createOrg({ dailyLimit });
  await insertTestDevice(app.ctx, made.org.id);
  return made;
}

const three = ['+261341234567', '+261341234568', '+261341234569'];
const secondsToMidnight = () => (Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1) - Date.now()) / 1000;

describe('the daily message limit', () => {
  it('admits exactly what fits among 50 concurrent sends at the boundary', async () => {
    const { org, key } = await orgWithLimit(100);
    // Taken before sending: each Retry-After is computed later, so it is at most this, however slow the machine.
    const latestRetryAfter = Math.ceil(secondsToMidnight()) + 1;
    const results = await Promise.all(Array.from({ length: 50 }, () => app.request('POST', '/v1/messages', { key, body: { to: three, body: 'x' } })));
    const accepted = results.filter((r) => r.status === 202);
    expect(accepted).toHaveLength(33);
    for (const r of results.filter((x) => x.status !== 202)) {
      expectError(r, 429, 'rate_limited', /daily/);
      const retryAfter = Number(r.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(latestRetryAfter);
    }
    expect(await countRows(app, 'messages', org.id)).toBe(99);
    // one more fits, two do not
    expect((await app.request('POST', '/v1/messages', { key, body: { to: three.slice(0, 2), body: 'x' } })).status).toBe(429);
    expect((await app.request('POST', '/v1/messages', { key, body: { to: three[0], body: 'x' } })).status).toBe(202);
    expect(await countRows(app, 'messages', org.id)).toBe(100);
  });

  it('seeds the counter from Postgres when Redis lost it', async () => {
    const { org, key } = await orgWithLimit(5);
    expect((await app.request('POST', '/v1/messages', { key, body: { to: three, body: 'x' } })).status).toBe(202);
    const counter = app.ctx.keys.org(org.id).dailyCount(utcDay());
    await app.ctx.redis.del(counter);
    expectError(await app.request('POST', '/v1/messages', { key, body: { to: three, body: 'x' } }), 429, 'rate_limited');
    expect(Number(await app.ctx.redis.get(counter))).toBe(3);
    expect((await app.request('POST', '/v1/messages', { key, body: { to: three.slice(0, 2), body: 'x' } })).status).toBe(202);
    expect(await countRows(app, 'messages', org.id)).toBe(5);
  });

  it('refunds a send refused after admission (no eligible phone)', async () => {
    const { org, key } = await orgWithLimit(3);
    await app.ctx.db.query('UPDATE devices SET draining = true WHERE org_id = $1', [org.id]);
    expectError(await app.request('POST', '/v1/messages', { key, body: { to: three, body: 'x' } }), 409, 'no_device');
    await app.ctx.db.query('UPDATE devices SET draining = false WHERE org_id = $1', [org.id]);
    expect((await app.request('POST', '/v1/messages', { key, body: { to: three, body: 'x' } })).status).toBe(202);
  });

  it('answers a full day with 429 before saying no phone can send (whose check is read beside the opt-outs)', async () => {
    const { org, key } = await orgWithLimit(1);
    expect((await app.request('POST', '/v1/messages', { key, body: { to: three[0], body: 'x' } })).status).toBe(202);
    await app.ctx.db.query('UPDATE devices SET draining = true WHERE org_id = $1', [org.id]);
    expectError(await app.request('POST', '/v1/messages', { key, body: { to: three[1], body: 'x' } }), 429, 'rate_limited');
    expect(await countRows(app, 'messages', org.id)).toBe(1);
  });

  it('counts each organization on its own', async () => {
    const a = await orgWithLimit(1);
    const b = await orgWithLimit(1);
    expect((await app.request('POST', '/v1/messages', { key: a.key, body: { to: three[0], body: 'x' } })).status).toBe(202);
    expect((await app.request('POST', '/v1/messages', { key: b.key, body: { to: three[0], body: 'x' } })).status).toBe(202);
    expect((await app.request('POST', '/v1/messages', { key: a.key, body: { to: three[0], body: 'x' } })).status).toBe(429);
  });
});

describe('the daily limit across midnight UTC (a clock the test moves)', () => {
  let late: TestApp;
  // Two seconds before midnight, in a year no other test writes to.
  const clock = { t: Date.UTC(2031, 0, 1, 23, 59, 58, 0), now: () => clock.t };
  beforeAll(async () => {
    late = await startTestApp({}, undefined, clock);
  });
  afterAll(() => late.close());

  it('refuses with Retry-After counting to midnight, then admits the first send of the new day', async () => {
    const { org, key } = await late.createOrg({ dailyLimit: 3 });
    await insertTestDevice(late.ctx, org.id);
    const sent = await late.request('POST', '/v1/messages', { key, body: { to: three, body: 'x' } });
    expect(sent.status).toBe(202);
    expect(sent.body.messages[0].createdAt).toBe('2031-01-01T23:59:58.000Z');

    clock.t += 1500; // 23:59:59.5
    const refused = await late.request('POST', '/v1/messages', { key, body: { to: three[0], body: 'x' } });
    expectError(refused, 429, 'rate_limited', /daily/);
    expect(refused.headers.get('retry-after')).toBe('1');

    clock.t += 600; // 00:00:00.1 on 2 January
    const next = await late.request('POST', '/v1/messages', { key, body: { to: three, body: 'x' } });
    expect(next.status).toBe(202);
    expect(await late.ctx.redis.get(late.ctx.keys.org(org.id).dailyCount('20310102'))).toBe('3');
    expectError(await late.request('POST', '/v1/messages', { key, body: { to: three[0], body: 'x' } }), 429, 'rate_limited');
  });
});
