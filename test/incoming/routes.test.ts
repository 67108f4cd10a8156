import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.js';
import { pairPhone, schemaErrors, startDevicesApp } from '../devices/support.js';
import { recordIncomingMany } from '../../src/incoming/record-incoming.js';
import { IncomingMessageSchema } from '../../src/incoming/schemas.js';
import { sms, unlockedPhone } from './support.js';

let app: TestApp;
let key: string;
let orgId: string;

beforeAll(async () => {
  app = await startDevicesApp();
  ({
    key,
    org: { id: orgId },
  } = await app.createOrg());
});
afterAll(() => app.close());

describe('POST /device/v1/incoming', () => {
  const post = (token: string, body: unknown) => app.request('POST', '/device/v1/incoming', { headers: { authorization: `Bearer ${token}` }, body });

  it('stores a batch and answers one result per SMS, in order', async () => {
    const { deviceId, token } = await pairPhone(app, orgId);
    await app.ctx.db.query('UPDATE devices SET default_sms_app = true, default_sms_app_reported_at = now() WHERE id = $1', [deviceId]);
    const list = [sms({ clientId: 'h1' }), sms({ clientId: 'h2', part: { ref: 3, index: 1, count: 2 } }), sms({ clientId: 'h1' })];
    const res = await post(token, { messages: list });
    expect(res.status).toBe(200);
    const [a, b, c] = res.body.results;
    expect(a).toEqual({ clientId: 'h1', incomingId: expect.stringMatching(/^inc_/) });
    expect(b).toEqual({ clientId: 'h2', incomingId: null, pending: true });
    expect(c).toEqual({ clientId: 'h1', incomingId: a.incomingId });
  });

  it('answers inbound_locked per SMS while the phone has not reported the default SMS app role', async () => {
    const { token } = await pairPhone(app, orgId);
    const res = await post(token, { messages: [sms({ clientId: 'l1' })] });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([{ clientId: 'l1', error: { code: 'inbound_locked', message: expect.stringContaining('not_reported') } }]);
  });

  it('refuses an unknown token with 401 and a malformed batch with 400', async () => {
    expect((await post('hfd_nope', { messages: [sms()] })).status).toBe(401);
    const { token } = await pairPhone(app, orgId);
    const empty = await post(token, { messages: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('invalid_request');
    const badTime = await post(token, { messages: [sms({ receivedAt: 'yesterday' })] });
    expect(badTime.status).toBe(400);
    expect(badTime.body.error.message).toContain('messages[0].receivedAt');
    const badPart = await post(token, { messages: [sms({ part: { ref: 1, index: 1, count: 1 } })] });
    expect(badPart.status).toBe(400);
  });
});

describe('GET /v1/incoming', () => {
  it('lists newest first, filters by device and walks every page once', async () => {
    const { org, key: k } = await app.createOrg();
    const a = await unlockedPhone(app, org.id);
    const b = await unlockedPhone(app, org.id);
    await recordIncomingMany(
      app.ctx,
      a,
      Array.from({ length: 7 }, (_, i) => sms({ body: `a${i}` })),
    );
    await recordIncomingMany(
      app.ctx,
      b,
      Array.from({ length: 3 }, (_, i) => sms({ body: `b${i}` })),
    );

    const all = await app.request('GET', '/v1/incoming', { key: k });
    expect(all.status).toBe(200);
    expect(all.body.messages).toHaveLength(10);
    expect(all.body.nextCursor).toBeNull();
    const ids = all.body.messages.map((m: { id: string }) => m.id);
    expect(ids).toEqual([...ids].sort().reverse());
    expect(all.body.messages[0].body).toBe('b2');

    const seen: string[] = [];
    let before: string | null = null;
    do {
      const res: any = await app.request('GET', `/v1/incoming?deviceId=${a.deviceId}&limit=3${before ? `&before=${before}` : ''}`, { key: k });
      expect(res.status).toBe(200);
      expect(res.body.messages.length).toBeLessThanOrEqual(3);
      for (const m of res.body.messages) expect(m.deviceId).toBe(a.deviceId);
      seen.push(...res.body.messages.map((m: { body: string }) => m.body));
      before = res.body.nextCursor;
    } while (before);
    expect(seen).toEqual(['a6', 'a5', 'a4', 'a3', 'a2', 'a1', 'a0']);
  });

  it('refuses invalid query parameters with 400', async () => {
    for (const q of ['limit=0', 'limit=101', 'deviceId=bad%20id', 'before=not-a-cursor']) {
      const res = await app.request('GET', `/v1/incoming?${q}`, { key });
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
  });

  it('needs the incoming:read scope', async () => {
    const { key: narrow } = await app.createKey(orgId, ['messages:read']);
    expect((await app.request('GET', '/v1/incoming', { key: narrow })).status).toBe(403);
    expect((await app.request('GET', '/v1/incoming')).status).toBe(401);
  });
});

describe('OpenAPI', () => {
  it('documents the received-SMS and mobile-money routes of the public API', async () => {
    const res = await app.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    for (const path of ['/v1/incoming', '/v1/incoming/{incomingId}', '/v1/mobile-money', '/v1/mobile-money/{eventId}']) {
      expect(Object.keys(res.body.paths), path).toContain(path);
    }
  });
});

describe('GET /v1/incoming/:incomingId', () => {
  it('answers every field of the spec', async () => {
    const phone = await unlockedPhone(app, orgId);
    const [r] = await recordIncomingMany(app.ctx, phone, [sms({ body: 'x', simSubscriptionId: 1, receivedAt: '2026-02-01T10:00:00Z' })]);
    const id = (r as { incomingId: string }).incomingId;
    const res = await app.request('GET', `/v1/incoming/${id}`, { key });
    expect(res.status).toBe(200);
    expect(schemaErrors(IncomingMessageSchema, res.body)).toEqual([]);
    expect(res.body).toMatchObject({ id, deviceId: phone.deviceId, body: 'x', simSubscriptionId: 1, receivedAt: '2026-02-01T10:00:00.000Z', bodyPurgedAt: null, mobileMoney: null });
  });

  it("answers 404 for another organization's message and for unknown ids", async () => {
    const other = await app.createOrg();
    const phone = await unlockedPhone(app, other.org.id);
    const [r] = await recordIncomingMany(app.ctx, phone, [sms()]);
    const id = (r as { incomingId: string }).incomingId;
    expect((await app.request('GET', `/v1/incoming/${id}`, { key: other.key })).status).toBe(200);
    const res = await app.request('GET', `/v1/incoming/${id}`, { key });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect((await app.request('GET', '/v1/incoming/inc_missing', { key })).status).toBe(404);
    const list = await app.request('GET', `/v1/incoming?deviceId=${phone.deviceId}`, { key });
    expect(list.body.messages).toEqual([]);
  });
});
