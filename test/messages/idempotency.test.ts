import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { countRows, expectError } from '../api/expect-error.js';
import { utcDay } from '../../src/redis/keys.js';

let app: TestApp;
let key: string;
let orgId: string;

beforeAll(async () => {
  app = await startTestApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
  await insertTestDevice(app.ctx, orgId);
});
afterAll(() => app.close());

const newKey = () => `idem-${randomBytes(8).toString('hex')}`;
const send = (idem: string, body: unknown) => app.request('POST', '/v1/messages', { key, body, headers: { 'idempotency-key': idem } });
const request = { to: ['+261341234567', '+261341234568'], body: 'Salama' };
const dailyCount = async () => Number(await app.ctx.redis.get(app.ctx.keys.org(orgId).dailyCount(utcDay())));

describe('idempotency-key', () => {
  it('replays the original response for the same key and body, and writes nothing new', async () => {
    const idem = newKey();
    const first = await send(idem, request);
    expect(first.status).toBe(202);
    const counts = [await countRows(app, 'messages', orgId), await countRows(app, 'batches', orgId), await dailyCount()];
    const again = await send(idem, { body: request.body, to: request.to }); // key order does not matter
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect([await countRows(app, 'messages', orgId), await countRows(app, 'batches', orgId), await dailyCount()]).toEqual(counts);
  });

  it.each([
    ['another body', { ...request, body: 'Salama!' }],
    ['other recipients', { ...request, to: ['+261341234567'] }],
    ['recipients in another order', { ...request, to: [...request.to].reverse() }],
  ])('refuses the same key with %s: 409 conflict', async (_name, changed) => {
    const idem = newKey();
    expect((await send(idem, request)).status).toBe(202);
    const before = await countRows(app, 'messages', orgId);
    expectError(await send(idem, changed), 409, 'conflict', /idempotency/);
    expect(await countRows(app, 'messages', orgId)).toBe(before);
  });

  it('keeps keys apart per organization', async () => {
    const idem = newKey();
    const other = await app.createOrg();
    await insertTestDevice(app.ctx, other.org.id);
    const mine = await send(idem, request);
    const theirs = await app.request('POST', '/v1/messages', { key: other.key, body: { ...request, body: 'other' }, headers: { 'idempotency-key': idem } });
    expect(mine.status).toBe(202);
    expect(theirs.status).toBe(202);
    expect(theirs.body.batchId).not.toBe(mine.body.batchId);
  });

  it('lets a key refused before anything was written be used again', async () => {
    const idem = newKey();
    expect((await send(idem, { ...request, deviceId: 'dev_doesnotexist' })).status).toBe(400);
    expect((await send(idem, request)).status).toBe(202);
  });

  it('creates exactly one batch from concurrent requests with one key', async () => {
    const idem = newKey();
    const results = await Promise.all(Array.from({ length: 8 }, () => send(idem, request)));
    const accepted = results.filter((r) => r.status === 202);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 202)) expectError(r, 409, 'conflict');
    expect(new Set(accepted.map((r) => r.body.batchId)).size).toBe(1);
    const { rows } = await app.ctx.db.query('SELECT id, message_count FROM batches WHERE org_id = $1 AND idempotency_key = $2', [orgId, idem]);
    expect(rows).toHaveLength(1);
    const messages = await app.ctx.db.query('SELECT count(*)::int AS n FROM messages WHERE batch_id = $1', [rows[0].id]);
    expect(messages.rows[0].n).toBe(2);
    // once the first request is done, a retry gets the replay
    const retry = await send(idem, request);
    expect(retry.status).toBe(202);
    expect(retry.body.batchId).toBe(rows[0].id);
  });

  it('replays from Postgres after Redis lost the idempotency record, without counting again', async () => {
    const idem = newKey();
    const first = await send(idem, request);
    await app.ctx.redis.del(app.ctx.keys.org(orgId).idempotency(idem));
    const counts = [await countRows(app, 'messages', orgId), await dailyCount()];
    const again = await send(idem, request);
    expect(again.status).toBe(202);
    expect(again.body.batchId).toBe(first.body.batchId);
    expect(again.body.messages.map((m: any) => m.id)).toEqual(first.body.messages.map((m: any) => m.id));
    expect([await countRows(app, 'messages', orgId), await dailyCount()]).toEqual(counts);
  });

  it('still refuses a different body after Redis lost the record', async () => {
    const idem = newKey();
    await send(idem, request);
    await app.ctx.redis.del(app.ctx.keys.org(orgId).idempotency(idem));
    expectError(await send(idem, { ...request, body: 'changed' }), 409, 'conflict');
  });
});
