import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { expectError } from '../api/expect-error.js';
import { applyTransitions } from '../../src/messages/transitions.js';

let app: TestApp;
let key: string;
let orgId: string;
let sentIds: string[]; // 120 messages, oldest first

const numbers = (n: number) => Array.from({ length: n }, (_, i) => `+26134${String(2000000 + i).slice(-7)}`);
const get = (path: string, k = key) => app.request('GET', path, { key: k });

beforeAll(async () => {
  app = await startTestApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
  await insertTestDevice(app.ctx, orgId);
  sentIds = [];
  for (const n of [40, 40, 40]) {
    const res = await app.request('POST', '/v1/messages', { key, body: { to: numbers(n), body: 'page me' } });
    sentIds.push(...res.body.messages.map((m: any) => m.id));
  }
});
afterAll(() => app.close());

describe('GET /v1/messages', () => {
  it('lists newest first with a default page of 50', async () => {
    const res = await get('/v1/messages');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['messages', 'nextCursor']);
    expect(res.body.messages).toHaveLength(50);
    expect(res.body.messages.map((m: any) => m.id)).toEqual([...sentIds].reverse().slice(0, 50));
    const created = res.body.messages.map((m: any) => Date.parse(m.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(typeof res.body.nextCursor).toBe('string');
  });

  it('walks every message exactly once, even when new ones arrive between pages', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(`/v1/messages?limit=25${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.messages.length).toBeLessThanOrEqual(25);
      seen.push(...res.body.messages.map((m: any) => m.id));
      cursor = res.body.nextCursor;
      pages++;
      await app.request('POST', '/v1/messages', { key, body: { to: numbers(2), body: 'arrives meanwhile' } });
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toHaveLength(120);
    expect(new Set(seen).size).toBe(120);
    expect([...seen].reverse()).toEqual(sentIds);
  });

  it('walks messages of mixed statuses in one newest-first order, page by page', async () => {
    const mixed = await app.createOrg();
    await insertTestDevice(app.ctx, mixed.org.id);
    const sent = await app.request('POST', '/v1/messages', { key: mixed.key, body: { to: numbers(9), body: 'mixed' } });
    const ids: string[] = sent.body.messages.map((m: any) => m.id);
    for (const id of [ids[1], ids[4], ids[7]]) expect((await app.request('POST', `/v1/messages/${id}/cancel`, { key: mixed.key })).status).toBe(200);
    await applyTransitions(
      app.ctx.db,
      app.ctx.changes,
      [ids[2]!, ids[6]!].map((id) => ({ id, to: 'expired' as const, at: new Date(), source: 'system' as const, code: 'expired' })),
    );
    const seen: { id: string; status: string }[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(`/v1/messages?limit=2${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`, mixed.key);
      expect(res.status).toBe(200);
      seen.push(...res.body.messages.map((m: any) => ({ id: m.id, status: m.status })));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen.map((m) => m.id)).toEqual([...ids].reverse());
    expect(seen.map((m) => m.status).reverse()).toEqual(['queued', 'cancelled', 'expired', 'queued', 'cancelled', 'queued', 'expired', 'cancelled', 'queued']);
  });

  it('ends with nextCursor null on the last page', async () => {
    const { key: emptyKey, org } = await app.createOrg();
    await insertTestDevice(app.ctx, org.id);
    expect((await get('/v1/messages', emptyKey)).body).toEqual({ messages: [], nextCursor: null });
    await app.request('POST', '/v1/messages', { key: emptyKey, body: { to: numbers(2), body: 'x' } });
    const exact = await get('/v1/messages?limit=2', emptyKey);
    expect(exact.body.messages).toHaveLength(2);
    expect(exact.body.nextCursor).toBeNull();
  });

  it('accepts limit 1 and 100', async () => {
    expect((await get('/v1/messages?limit=1')).body.messages).toHaveLength(1);
    expect((await get('/v1/messages?limit=100')).body.messages).toHaveLength(100);
  });

  it.each([
    'limit=0',
    'limit=101',
    'limit=abc',
    'limit=1.5',
    'limit=-1',
    'limit=',
    'status=sending_now',
    'status=QUEUED',
    'before=not-a-cursor',
    `before=${'a'.repeat(201)}`,
    `before=${Buffer.from('{"b":"../x"}').toString('base64url')}`,
  ])('answers 400 to %s', async (query) => {
    expectError(await get(`/v1/messages?${query}`), 400, 'invalid_request', new RegExp(query.split('=')[0]!));
  });

  it('ignores unknown query parameters and reads a repeated one once (the first)', async () => {
    expect((await get('/v1/messages?foo=bar&limit=2')).body.messages).toHaveLength(2);
    expect((await get('/v1/messages?limit=3&limit=500')).body.messages).toHaveLength(3);
  });

  it('filters by status', async () => {
    const cancelled = sentIds[3]!;
    expect((await app.request('POST', `/v1/messages/${cancelled}/cancel`, { key })).status).toBe(200);
    const res = await get('/v1/messages?status=cancelled');
    expect(res.body.messages.map((m: any) => m.id)).toEqual([cancelled]);
    const queued = await get('/v1/messages?status=queued&limit=100');
    expect(queued.body.messages.every((m: any) => m.status === 'queued')).toBe(true);
    expect(queued.body.messages.map((m: any) => m.id)).not.toContain(cancelled);
    expect((await get('/v1/messages?status=delivered')).body).toEqual({ messages: [], nextCursor: null });
  });

  it('walks the messages of one status page by page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(`/v1/messages?status=queued&limit=50${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.messages.every((m: any) => m.status === 'queued')).toBe(true);
      seen.push(...res.body.messages.map((m: any) => m.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...seen].sort().reverse());
    // Every one of the first 120 still queued is there (one of them was cancelled above).
    const { rows } = await app.ctx.db.query(`SELECT id FROM messages WHERE org_id = $1 AND status = 'queued'`, [orgId]);
    expect(seen.sort()).toEqual(rows.map((r: any) => r.id).sort());
    expect(seen.length).toBeGreaterThan(100);
  });

  it("never lists another organization's messages", async () => {
    const other = await app.createOrg();
    const res = await get('/v1/messages?limit=100', other.key);
    expect(res.body.messages).toEqual([]);
  });
});

/** The spec's Message table: every field, always present, with its type (and the one field beyond it). */
const MESSAGE_FIELDS: Record<string, (v: unknown) => boolean> = {
  id: (v) => typeof v === 'string',
  to: (v) => typeof v === 'string' && /^\+[1-9]\d{6,14}$/.test(v),
  body: (v) => typeof v === 'string',
  status: (v) => ['accepted', 'queued', 'claimed', 'sending', 'sent', 'delivered', 'failed', 'expired', 'cancelled', 'unknown'].includes(v as string),
  segments: (v) => Number.isInteger(v),
  encoding: (v) => v === 'gsm7' || v === 'ucs2',
  deviceId: (v) => v === null || typeof v === 'string',
  requestedDeviceId: (v) => v === null || typeof v === 'string',
  simSubscriptionId: (v) => v === null || Number.isInteger(v),
  batchId: (v) => v === null || typeof v === 'string',
  resendOfId: (v) => v === null || typeof v === 'string',
  failureCode: (v) => v === null || typeof v === 'string',
  createdAt: isDateTime,
  updatedAt: isDateTime,
  claimedAt: (v) => v === null || isDateTime(v),
  sentAt: (v) => v === null || isDateTime(v),
  deliveredAt: (v) => v === null || isDateTime(v),
  failedAt: (v) => v === null || isDateTime(v),
  expiresAt: isDateTime,
  // Beyond the spec (docs/decisions.md, "Scheduled sends"): null unless the send had a sendAt.
  sendAt: (v) => v === null || isDateTime(v),
};

function isDateTime(v: unknown): boolean {
  return typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(v) && !Number.isNaN(Date.parse(v));
}

function expectMessageShape(m: Record<string, unknown>, extra: string[] = []): void {
  expect(Object.keys(m).sort()).toEqual([...Object.keys(MESSAGE_FIELDS), ...extra].sort());
  for (const [field, ok] of Object.entries(MESSAGE_FIELDS)) expect(ok(m[field]), `${field}: ${JSON.stringify(m[field])}`).toBe(true);
}

describe('GET /v1/messages/{messageId}', () => {
  it('returns every Message field with its type, and the timeline', async () => {
    const sent = await app.request('POST', '/v1/messages', { key, body: { to: '0341234567', body: 'detail' } });
    const id = sent.body.messages[0].id;
    const res = await get(`/v1/messages/${id}`);
    expect(res.status).toBe(200);
    expectMessageShape(res.body, ['events']);
    expect(res.body).toMatchObject({
      id,
      to: '+261341234567',
      body: 'detail',
      status: 'queued',
      segments: 1,
      encoding: 'gsm7',
      deviceId: null,
      requestedDeviceId: null,
      simSubscriptionId: null,
      batchId: sent.body.batchId,
      resendOfId: null,
      failureCode: null,
      claimedAt: null,
      sentAt: null,
      deliveredAt: null,
      failedAt: null,
    });
    const ttl = Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt);
    expect(ttl).toBe(24 * 3600 * 1000);
    expect(res.body.events).toHaveLength(1);
    const [event] = res.body.events;
    expect(Object.keys(event).sort()).toEqual(['at', 'code', 'deviceId', 'fromStatus', 'source', 'toStatus']);
    expect(event).toMatchObject({ fromStatus: null, toStatus: 'queued', source: 'api', code: null, deviceId: null });
    expect(isDateTime(event.at)).toBe(true);
  });

  it('returns the same fields in the send result and in lists', async () => {
    const sent = await app.request('POST', '/v1/messages', { key, body: { to: '0341234567', body: 'shape' } });
    expect(Object.keys(sent.body).sort()).toEqual(['batchId', 'messages']);
    expectMessageShape(sent.body.messages[0]);
    const listed = await get('/v1/messages?limit=1');
    expectMessageShape(listed.body.messages[0]);
    expect(listed.body.messages[0]).toEqual(sent.body.messages[0]);
    const { events, ...detail } = (await get(`/v1/messages/${sent.body.messages[0].id}`)).body;
    expect(detail).toEqual(sent.body.messages[0]);
    expect(events.map((e: { toStatus: string }) => e.toStatus)).toEqual(['queued']);
  });

  it("answers 404 for another organization's message", async () => {
    const other = await app.createOrg();
    expectError(await get(`/v1/messages/${sentIds[0]}`, other.key), 404, 'not_found');
  });

  it.each(['msg_doesnotexist', 'a'.repeat(64)])('answers 404 for an unknown id %s', async (id) => {
    expectError(await get(`/v1/messages/${id}`), 404, 'not_found');
  });

  it.each(['bad.id', 'a'.repeat(65), 'has%20space', '%C3%A9t%C3%A9', 'x%2Fy'])('answers 404 for a path id outside the id pattern: %s', async (id) => {
    expectError(await get(`/v1/messages/${id}`), 404, 'not_found');
    expectError(await app.request('POST', `/v1/messages/${id}/cancel`, { key }), 404, 'not_found');
  });

  it('answers 404 not_found with the error shape for an unknown route', async () => {
    expectError(await get('/v1/nothing-here'), 404, 'not_found');
  });
});
