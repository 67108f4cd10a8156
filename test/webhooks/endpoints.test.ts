import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/index.js';
import { startTestApp, type TestApp } from '../support/harness.js';

let app: TestApp;
let key: string;
const URL_OK = 'https://localhost:8443/hooks';
const create = (k: string, body: unknown) => app.request('POST', '/v1/webhooks', { key: k, body });

beforeAll(async () => {
  app = await startTestApp({ webhookAllowHosts: ['localhost'] });
  key = (await app.createOrg()).key;
});
afterAll(() => app.close());

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('webhook endpoints', () => {
  it('creates an endpoint with every field and returns its secret once', async () => {
    const res = await create(key, { url: URL_OK, description: 'orders', eventTypes: ['message.sent', 'message.sent', 'incoming.received'] });
    expect(res.status).toBe(201);
    const { endpoint, secret } = res.body;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(endpoint).toEqual({
      id: expect.stringMatching(/^whe_/),
      url: URL_OK,
      description: 'orders',
      eventTypes: ['message.sent', 'incoming.received'],
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      consecutiveFailures: 0,
      lastSuccessAt: null,
      lastFailureAt: null,
      previousSecretExpiresAt: null,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const one = await app.request('GET', `/v1/webhooks/${endpoint.id}`, { key });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(endpoint);
    const list = await app.request('GET', '/v1/webhooks', { key });
    expect(list.status).toBe(200);
    expect(list.body.endpoints).toContainEqual(endpoint);
    expect(list.body.eventTypes).toEqual([...EVENT_TYPES]);
    for (const body of [JSON.stringify(one.body), JSON.stringify(list.body)]) {
      expect(body).not.toContain(secret);
      expect(body).not.toContain('whsec_');
    }
  });

  it('takes a null or missing description as null', async () => {
    const a = await create(key, { url: URL_OK, description: null, eventTypes: ['message.sent'] });
    const b = await create(key, { url: URL_OK, eventTypes: ['message.sent'] });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect([a.body.endpoint.description, b.body.endpoint.description]).toEqual([null, null]);
  });

  it.each([
    ['http://localhost/', /https/],
    ['https://user:pw@localhost/', /user name or password/],
    ['not a url', /not a valid absolute URL/],
    ['https://127.0.0.1/', /loopback/],
    ['https://[::1]/', /loopback/],
    ['https://10.1.2.3/', /private/],
    ['https://172.16.0.1/', /private/],
    ['https://192.168.1.1/', /private/],
    ['https://169.254.169.254/latest/meta-data', /cloud metadata/],
    ['https://169.254.10.10/', /link-local/],
    ['https://100.64.0.1/', /CGNAT/],
    ['https://224.0.0.1/', /multicast/],
    ['https://240.0.0.1/', /reserved/],
    ['https://0.0.0.0/', /this network/],
    ['https://[::ffff:127.0.0.1]/', /loopback/],
    ['https://[::ffff:10.0.0.1]/', /private/],
    ['https://[64:ff9b::a00:1]/', /private/],
    ['https://[fe80::1]/', /link-local/],
    ['https://[fc00::1]/', /unique local/],
    ['https://[fd00:ec2::254]/', /cloud metadata/],
    ['https://[2001:db8::1]/', /documentation/],
    ['https://[2002:7f00:1::]/', /6to4/],
    ['https://2130706433/', /loopback/],
    ['https://0x7f.1/', /loopback/],
    [`https://localhost/${'a'.repeat(2048)}`, /2048/],
  ])('refuses %s with 400 naming the reason', async (url, reason) => {
    const res = await create(key, { url, eventTypes: ['message.sent'] });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toMatch(/^url: /);
    expect(res.body.error.message).toMatch(reason);
  });

  it.each([
    [{ url: URL_OK }, /eventTypes/],
    [{ url: URL_OK, eventTypes: [] }, /eventTypes/],
    [{ url: URL_OK, eventTypes: ['message.accepted'] }, /eventTypes\[0\]|eventTypes/],
    [{ url: URL_OK, eventTypes: 'message.sent' }, /eventTypes/],
    [{ url: URL_OK, eventTypes: ['message.sent'], description: 'x'.repeat(257) }, /description/],
    [{ url: URL_OK, eventTypes: ['message.sent'], description: 7 }, /description/],
    [{ url: URL_OK, eventTypes: ['message.sent'], secret: 'whsec_mine' }, /secret|additional/i],
    [{ eventTypes: ['message.sent'] }, /url/],
    [{ url: 5, eventTypes: ['message.sent'] }, /url/],
  ])('refuses the body %j with 400', async (body, field) => {
    const res = await create(key, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toMatch(field);
  });

  it('answers 415 to a body that is not JSON', async () => {
    const res = await app.request('POST', '/v1/webhooks', { key, rawBody: 'url=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
  });

  it('refuses the 21st endpoint of an organization with 409, and accepts one again after a deletion', async () => {
    const { key: k } = await app.createOrg();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await create(k, { url: URL_OK, eventTypes: ['message.sent'] });
      expect(res.status).toBe(201);
      ids.push(res.body.endpoint.id);
    }
    const over = await create(k, { url: URL_OK, eventTypes: ['message.sent'] });
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe('conflict');
    expect((await app.request('DELETE', `/v1/webhooks/${ids[0]}`, { key: k })).status).toBe(204);
    expect((await create(k, { url: URL_OK, eventTypes: ['message.sent'] })).status).toBe(201);
  });

  it("hides another organization's endpoints (404 on every route)", async () => {
    const mine = (await create(key, { url: URL_OK, eventTypes: ['message.sent'] })).body.endpoint;
    const { key: other } = await app.createOrg();
    for (const [method, path, body] of [
      ['GET', `/v1/webhooks/${mine.id}`],
      ['DELETE', `/v1/webhooks/${mine.id}`],
      ['GET', `/v1/webhooks/${mine.id}/deliveries`],
      ['PATCH', `/v1/webhooks/${mine.id}`, { enabled: false }],
      ['POST', `/v1/webhooks/${mine.id}/rotate-secret`],
      ['GET', '/v1/webhooks/whe_nosuch'],
    ] as const) {
      const res = await app.request(method, path, { key: other, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await app.request('GET', '/v1/webhooks', { key: other })).body.endpoints).toEqual([]);
    expect((await app.request('GET', `/v1/webhooks/${mine.id}`, { key })).body.enabled).toBe(true);
  });

  it('needs webhooks:read to read and webhooks:write to change', async () => {
    const { org } = await app.createOrg();
    const reader = (await app.createKey(org.id, ['webhooks:read'])).key;
    const writer = (await app.createKey(org.id, ['webhooks:write'])).key;
    expect((await create(reader, { url: URL_OK, eventTypes: ['message.sent'] })).status).toBe(403);
    expect((await app.request('GET', '/v1/webhooks', { key: writer })).status).toBe(403);
    expect((await app.request('GET', '/v1/webhooks', { key: reader })).status).toBe(200);
    expect((await create(writer, { url: URL_OK, eventTypes: ['message.sent'] })).status).toBe(201);
    expect((await app.request('GET', '/v1/webhooks')).status).toBe(401);
  });

  it('updates url, description and eventTypes, and checks a new url', async () => {
    const created = (await create(key, { url: URL_OK, description: 'a', eventTypes: ['message.sent'] })).body.endpoint;
    const res = await app.request('PATCH', `/v1/webhooks/${created.id}`, {
      key,
      body: { url: 'https://localhost:9443/new', description: null, eventTypes: ['message.failed', 'message.delivered'] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ url: 'https://localhost:9443/new', description: null, eventTypes: ['message.failed', 'message.delivered'] });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    const bad = await app.request('PATCH', `/v1/webhooks/${created.id}`, { key, body: { url: 'https://192.168.0.1/' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^url: .*private/);
    expect((await app.request('PATCH', `/v1/webhooks/${created.id}`, { key, body: { eventTypes: [] } })).status).toBe(400);
    expect((await app.request('PATCH', `/v1/webhooks/${created.id}`, { key, body: { enabled: 'yes' } })).status).toBe(400);
    expect((await app.request('PATCH', `/v1/webhooks/${created.id}`, { key, body: { secret: 'x' } })).status).toBe(400);
    expect((await app.request('GET', `/v1/webhooks/${created.id}`, { key })).body.url).toBe('https://localhost:9443/new');
  });

  it('disables by hand and re-enables', async () => {
    const { id } = (await create(key, { url: URL_OK, eventTypes: ['message.sent'] })).body.endpoint;
    const off = await app.request('PATCH', `/v1/webhooks/${id}`, { key, body: { enabled: false } });
    expect(off.body).toMatchObject({ enabled: false, disabledReason: 'manual' });
    expect(off.body.disabledAt).toMatch(ISO);
    const on = await app.request('PATCH', `/v1/webhooks/${id}`, { key, body: { enabled: true } });
    expect(on.body).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null, consecutiveFailures: 0 });
  });

  it('rotates the secret: a new one, the previous valid for 24 hours', async () => {
    const { endpoint, secret } = (await create(key, { url: URL_OK, eventTypes: ['message.sent'] })).body;
    const res = await app.request('POST', `/v1/webhooks/${endpoint.id}/rotate-secret`, { key });
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(secret);
    const expires = Date.parse(res.body.endpoint.previousSecretExpiresAt) - Date.now();
    expect(expires).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(expires).toBeLessThanOrEqual(24 * 3600_000 + 1000);
    const stored = await app.ctx.db.query('SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1', [endpoint.id]);
    expect(stored.rows[0]).toEqual({ secret: res.body.secret, previous_secret: secret });
  });

  it('deletes with 204 and no body; the endpoint is gone', async () => {
    const { id } = (await create(key, { url: URL_OK, eventTypes: ['message.sent'] })).body.endpoint;
    const res = await app.request('DELETE', `/v1/webhooks/${id}`, { key });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await app.request('GET', `/v1/webhooks/${id}`, { key })).status).toBe(404);
    expect((await app.request('DELETE', `/v1/webhooks/${id}`, { key })).status).toBe(404);
  });

  it('validates the deliveries query', async () => {
    const { id } = (await create(key, { url: URL_OK, eventTypes: ['message.sent'] })).body.endpoint;
    expect((await app.request('GET', `/v1/webhooks/${id}/deliveries?limit=0`, { key })).status).toBe(400);
    expect((await app.request('GET', `/v1/webhooks/${id}/deliveries?before=garbage`, { key })).status).toBe(400);
    const empty = await app.request('GET', `/v1/webhooks/${id}/deliveries`, { key });
    expect(empty.body).toEqual({ deliveries: [], nextCursor: null });
  });
});
