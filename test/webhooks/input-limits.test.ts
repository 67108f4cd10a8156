import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { expectError } from '../api/expect-error.js';

// U+0000 in a description or URL used to reach Postgres and answer 500; it is a 400 naming the field.

let app: TestApp;
let key: string;
let orgId: string;
const URL_OK = 'https://localhost:8443/hooks';

beforeAll(async () => {
  app = await startTestApp({ webhookAllowHosts: ['localhost'] });
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
});
afterAll(() => app.close());

const endpoints = async () => (await app.ctx.db.query('SELECT id, url, description, event_types, updated_at FROM webhook_endpoints WHERE org_id = $1 ORDER BY id', [orgId])).rows;

describe('webhook endpoints refuse U+0000 and lone surrogates', () => {
  it.each([
    ['in the description', { url: URL_OK, description: 'orders\u0000', eventTypes: ['message.sent'] }, /^description: must not contain U\+0000/],
    ['in the url', { url: `${URL_OK}\u0000`, eventTypes: ['message.sent'] }, /^url: must not contain U\+0000/],
    ['(a lone surrogate) in the description', { url: URL_OK, description: 'orders\ud800', eventTypes: ['message.sent'] }, /^description: must be well-formed UTF-16/],
  ])('POST /v1/webhooks %s: 400 invalid_request naming the field, no endpoint', async (_name, body, message) => {
    const before = await endpoints();
    expectError(await app.request('POST', '/v1/webhooks', { key, body }), 400, 'invalid_request', message);
    expect(await endpoints()).toEqual(before);
  });

  it.each([
    ['in the description', { description: '\u0000' }, /^description: must not contain U\+0000/],
    ['in the url', { url: `https://local\u0000host/x` }, /^url: must not contain U\+0000/],
  ])('PATCH /v1/webhooks/:id %s: 400 invalid_request naming the field, the endpoint unchanged', async (_name, body, message) => {
    const created = await app.request('POST', '/v1/webhooks', { key, body: { url: URL_OK, description: 'orders', eventTypes: ['message.sent'] } });
    expect(created.status).toBe(201);
    const before = await endpoints();
    expectError(await app.request('PATCH', `/v1/webhooks/${created.body.endpoint.id}`, { key, body }), 400, 'invalid_request', message);
    expect(await endpoints()).toEqual(before);
  });

  it('GET /v1/webhooks/:id/deliveries refuses a limit past any column and a cursor holding U+0000', async () => {
    const created = await app.request('POST', '/v1/webhooks', { key, body: { url: URL_OK, eventTypes: ['message.sent'] } });
    const path = `/v1/webhooks/${created.body.endpoint.id}/deliveries`;
    expectError(await app.request('GET', `${path}?limit=9007199254740993`, { key }), 400, 'invalid_request', /^limit: must be an integer from 1 to 100/);
    expectError(await app.request('GET', `${path}?before=a%00b`, { key }), 400, 'invalid_request', /^before: must not contain U\+0000/);
  });
});
