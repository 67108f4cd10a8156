import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { expectError } from '../api/expect-error.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ pgPoolSize: 20 });
});
afterAll(() => app.close());

const numbers = (n: number, from: number) => Array.from({ length: n }, (_, i) => `+2613420${String(from + i).padStart(5, '0')}`);

it('claims a high-priority message before a 10,000-message backlog, also after the queues are rebuilt from Postgres', async () => {
  const { org, key } = await app.createOrg({ dailyLimit: 100_000 });
  const deviceId = await insertTestDevice(app.ctx, org.id);
  for (let i = 0; i < 20; i++) {
    const res = await app.request('POST', '/v1/messages', { key, body: { to: numbers(500, i * 500), body: 'campaign' } });
    expect(res.status).toBe(202);
  }
  const code = await app.request('POST', '/v1/messages', { key, body: { to: '+261341111111', body: 'Your code: 4821', priority: 'high' } });
  expect(code.status).toBe(202);
  const codeId = code.body.messages[0].id;
  // The spec's Message is unchanged: the priority is the send's, not a field of the message.
  expect(code.body.messages[0]).not.toHaveProperty('priority');

  const k = app.ctx.keys.org(org.id);
  await app.ctx.redis.del(k.orgQueue(), k.queueMeta(), app.ctx.keys.queuesBuilt());
  expect(await app.ctx.dispatch.rebuildIfLost()).toBe(10_001);

  const first = await app.ctx.dispatch.claim({ orgId: org.id, deviceId }, 1);
  expect(first.jobs.map((j) => j.messageId)).toEqual([codeId]);
  const next = await app.ctx.dispatch.claim({ orgId: org.id, deviceId }, 1);
  expect(next.jobs[0]!.body).toBe('campaign');
  expect(next.jobs[0]!.to).toBe('+261342000000'); // then the backlog, oldest first
});

it('refuses an unknown priority, naming the field, and stores nothing', async () => {
  const { org, key } = await app.createOrg();
  await insertTestDevice(app.ctx, org.id);
  const res = await app.request('POST', '/v1/messages', { key, body: { to: '+261341111111', body: 'x', priority: 'urgent' } });
  expectError(res, 400, 'invalid_request', /priority/);
  expect((await app.ctx.db.query('SELECT count(*)::int AS n FROM messages WHERE org_id = $1', [org.id])).rows[0].n).toBe(0);
});

it('keeps the priority of a message resent', async () => {
  const { org, key } = await app.createOrg();
  const deviceId = await insertTestDevice(app.ctx, org.id);
  const code = await app.request('POST', '/v1/messages', { key, body: { to: '+261341111111', body: 'Your code: 1', priority: 'high' } });
  const id = code.body.messages[0].id;
  await app.request('POST', `/v1/messages/${id}/cancel`, { key });
  await app.request('POST', '/v1/messages', { key, body: { to: numbers(50, 0), body: 'campaign' } });
  const resent = await app.request('POST', `/v1/messages/${id}/resend`, { key });
  expect(resent.status).toBe(202);
  const first = await app.ctx.dispatch.claim({ orgId: org.id, deviceId }, 1);
  expect(first.jobs.map((j) => j.messageId)).toEqual([resent.body.messages[0].id]);
});

it('gives a phone a high-priority message of the organization before the normal messages pinned to it', async () => {
  const { org, key } = await app.createOrg();
  const deviceId = await insertTestDevice(app.ctx, org.id);
  await app.request('POST', '/v1/messages', { key, body: { to: numbers(5, 0), body: 'pinned campaign', deviceId } });
  const code = await app.request('POST', '/v1/messages', { key, body: { to: '+261341111111', body: 'Your code: 2', priority: 'high' } });
  const claimed = await app.ctx.dispatch.claim({ orgId: org.id, deviceId }, 2);
  expect(claimed.jobs.map((j) => j.messageId)).toEqual([code.body.messages[0].id, expect.any(String)]);
  expect(claimed.jobs[1]!.body).toBe('pinned campaign');
});
