import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { apiRoutes } from '../../src/app/routes.js';
import { redisReady } from './redis-ready.js';

let app: TestApp;
let doc: any;

beforeAll(async () => {
  app = await startTestApp();
  await redisReady(app); // closing a context whose Redis is still connecting rejects unhandled
  const res = await app.request('GET', '/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = res.body;
});
afterAll(() => app.close());

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document served without authentication', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toEqual(expect.any(String));
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('documents every API route the server registers', () => {
    const registered = apiRoutes(app.ctx)
      .filter((r) => r.path.startsWith('/v1/'))
      .map((r) => `${r.method} ${r.path.replaceAll(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries<Record<string, unknown>>(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
    expect(documented.sort()).toEqual(registered.sort());
    for (const route of ['post /v1/messages', 'get /v1/messages', 'get /v1/messages/{messageId}', 'post /v1/messages/{messageId}/cancel', 'post /v1/messages/{messageId}/resend']) {
      expect(documented).toContain(route);
    }
  });

  it('gives every operation a bearer requirement, its scope, path parameters with the id pattern and the error shape', () => {
    for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const op of Object.values(ops)) {
        expect(op.security).toEqual([{ bearer: [] }]);
        expect(op['x-scope']).toMatch(/^[a-z-]+:(read|write|send)$/);
        for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
          const param = op.parameters.find((p: any) => p.name === name && p.in === 'path');
          expect(param?.schema.pattern).toBe('^[A-Za-z0-9_-]{1,64}$');
        }
        const error = op.responses.default.content['application/json'].schema;
        expect(error.properties.error.required.sort()).toEqual(['code', 'message', 'requestId']);
      }
    }
  });

  it('documents the opt-out list with its scopes and the number it takes', () => {
    const list = doc.paths['/v1/opt-outs'];
    expect([list.get['x-scope'], list.post['x-scope'], doc.paths['/v1/opt-outs/{entry}'].delete['x-scope']]).toEqual(['opt-outs:read', 'opt-outs:write', 'opt-outs:write']);
    expect(list.post.requestBody.content['application/json'].schema.required).toEqual(['number']);
    expect(Object.keys(list.post.responses).sort()).toEqual(['200', '201', 'default']);
    expect(list.get.parameters.map((p: { name: string }) => p.name)).toContain('number');
    expect(doc.paths['/v1/messages'].post.responses['202'].content['application/json'].schema.properties.messages.items.properties.failureCode.anyOf[0].description).toContain('opted_out');
  });

  it('carries the SendMessages constraints in the POST /v1/messages request schema', () => {
    const op = doc.paths['/v1/messages'].post;
    const schema = op.requestBody.content['application/json'].schema;
    expect(schema.type).toBe('object');
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required.sort()).toEqual(['body', 'to']);
    const [single, many] = schema.properties.to.anyOf;
    expect(single).toMatchObject({ type: 'string', maxLength: 32 });
    expect(many).toMatchObject({ type: 'array', minItems: 1, maxItems: 500, items: { type: 'string', maxLength: 32 } });
    expect(schema.properties.body).toMatchObject({ type: 'string', minLength: 1, maxLength: 1600 });
    expect(schema.properties.deviceId).toMatchObject({ type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' });
    expect(schema.properties.simSubscriptionId).toMatchObject({ type: 'integer', minimum: 0 });
    const header = op.parameters.find((p: any) => p.in === 'header' && p.name === 'idempotency-key');
    expect(header.schema).toMatchObject({ minLength: 1, maxLength: 128 });
    expect(op.responses['202'].content['application/json'].schema.properties.batchId.type).toBe('string');
    expect(op['x-scope']).toBe('messages:send');
  });

  it('documents the list query parameters with their constraints', () => {
    const params = doc.paths['/v1/messages'].get.parameters;
    const byName = Object.fromEntries(params.map((p: any) => [p.name, p]));
    expect(byName.limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
    expect(byName.before.schema).toMatchObject({ type: 'string', maxLength: 200 });
    const statuses = byName.status.schema.anyOf.map((s: any) => s.const).sort();
    expect(statuses).toEqual(['accepted', 'cancelled', 'claimed', 'delivered', 'expired', 'failed', 'queued', 'sending', 'sent', 'unknown']);
  });
});
