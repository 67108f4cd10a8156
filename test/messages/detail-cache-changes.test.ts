import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testConfig, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { applyTransitions } from '../../src/messages/transitions.js';
import { closeContext, contextReady, openContext } from '../../src/app/runtime.js';
import type { AppContext } from '../../src/context/app-context.js';
import { revokeDevice } from '../../src/devices/revoke-device.js';

// GET /v1/messages/{id} answers from the API process's cache of bodies while the message has not
// changed; every change, made by this process or another, drops the body.
let app: TestApp;
let other: AppContext;
let key: string;
let orgId: string;

const statusOf = async (id: string) => (await app.request('GET', `/v1/messages/${id}`, { key })).body.status as string;

async function send(): Promise<string> {
  const res = await app.request('POST', '/v1/messages', { key, body: { to: '+261341234567', body: 'cache me' } });
  expect(res.status).toBe(202);
  return res.body.messages[0].id as string;
}

/** The status the API answers once its kept body of the message is dropped (5 s at most). */
async function statusOnceHeard(id: string): Promise<string> {
  const deadline = Date.now() + 5_000;
  while (app.ctx.changes.cache.get(id) !== undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  return statusOf(id);
}

beforeAll(async () => {
  app = await startTestApp();
  const made = await app.createOrg();
  key = made.key;
  orgId = made.org.id;
  await insertTestDevice(app.ctx, made.org.id);
  // Another process: its changes reach the API's cache only through Redis.
  other = openContext(testConfig({ redisPrefix: app.ctx.config.redisPrefix }), 'other');
  await contextReady(other);
  // The API is subscribed once a change told by the other process is heard.
  const probe = await send();
  await statusOf(probe);
  await applyTransitions(other.db, other.changes, [{ id: probe, to: 'cancelled', at: new Date(), source: 'api' }]);
  expect(await statusOnceHeard(probe)).toBe('cancelled');
});
afterAll(async () => {
  await closeContext(other);
  await app.close();
});

describe('the cache of GET /v1/messages/{id}', () => {
  it('answers a polled message without reading Postgres again while it has not changed', async () => {
    const id = await send();
    expect(await statusOf(id)).toBe('queued');
    // Written behind the API's back (no transition, so no change told): the kept body answers.
    await app.ctx.db.query(`UPDATE messages SET status = 'cancelled' WHERE id = $1`, [id]);
    expect(await statusOf(id)).toBe('queued');
    // Told, it reads again.
    app.ctx.changes.changed([id]);
    expect(await statusOf(id)).toBe('cancelled');
  });

  it("shows a change made by this process's own routes at once", async () => {
    const id = await send();
    expect(await statusOf(id)).toBe('queued');
    expect((await app.request('POST', `/v1/messages/${id}/cancel`, { key })).status).toBe(200);
    expect(await statusOf(id)).toBe('cancelled');
  });

  it('shows a change made by another process once its signal arrives through Redis', async () => {
    const id = await send();
    expect(await statusOf(id)).toBe('queued');
    await applyTransitions(other.db, other.changes, [{ id, to: 'expired', at: new Date(), source: 'system', code: 'expired' }]);
    expect(await statusOnceHeard(id)).toBe('expired');
  });

  it('drops every body when any message may have changed (months dropped by retention)', async () => {
    const id = await send();
    expect(await statusOf(id)).toBe('queued');
    await app.ctx.db.query(`UPDATE messages SET status = 'cancelled' WHERE id = $1`, [id]);
    other.changes.changedEverything();
    expect(await statusOnceHeard(id)).toBe('cancelled');
  });

  it("shows a revocation's changes once its transaction commits", async () => {
    const phone = await insertTestDevice(app.ctx, orgId);
    const res = await app.request('POST', '/v1/messages', { key, body: { to: '+261341234568', body: 'pinned', deviceId: phone } });
    expect(res.status).toBe(202);
    const id = res.body.messages[0].id as string;
    expect(await statusOf(id)).toBe('queued');
    await revokeDevice(app.ctx, orgId, phone);
    expect(await statusOf(id)).toBe('failed');
  });

  it("answers another organization's message 404, cached or not", async () => {
    const id = await send();
    expect(await statusOf(id)).toBe('queued');
    const stranger = await app.createOrg();
    const res = await app.request('GET', `/v1/messages/${id}`, { key: stranger.key });
    expect(res.status).toBe(404);
  });

  it('keeps and answers nothing while the subscription is down', async () => {
    const id = await send();
    expect(await statusOf(id)).toBe('queued');
    app.ctx.changes.cache.disable();
    try {
      await app.ctx.db.query(`UPDATE messages SET status = 'cancelled' WHERE id = $1`, [id]);
      expect(await statusOf(id)).toBe('cancelled');
      expect(app.ctx.changes.cache.size).toBe(0);
    } finally {
      app.ctx.changes.cache.enable();
    }
  });
});
