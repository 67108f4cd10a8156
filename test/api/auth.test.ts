import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { revokeApiKey, rotateApiKey } from '../../src/auth/api-key-admin.js';
import { SCOPES } from '../../src/auth/principal.js';
import { expectError } from './expect-error.js';
import { redisReady } from './redis-ready.js';

let app: TestApp;
let orgId: string;
let key: string;

beforeAll(async () => {
  app = await startTestApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
  await insertTestDevice(app.ctx, orgId);
});
afterAll(() => app.close());

const list = (k?: string) => app.request('GET', '/v1/messages', { key: k });
const send = (k?: string, body: unknown = { to: '+261341234567', body: 'hi' }) => app.request('POST', '/v1/messages', { key: k, body });

describe('a request without a valid API key is refused with 401 unauthorized', () => {
  it('refuses a missing Authorization header', async () => {
    const res = await list();
    expectError(res, 401, 'unauthorized');
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it.each([
    ['Basic scheme', (k: string) => `Basic ${k}`],
    ['the scheme alone', () => 'Bearer'],
    ['an empty token', () => 'Bearer '],
    ['a token without the hfk_ prefix', (k: string) => `Bearer ${k.slice(4)}`],
    ['two tokens', (k: string) => `Bearer ${k} ${k}`],
    ['an overlong token', () => `Bearer hfk_${'a'.repeat(300)}`],
  ])('refuses a malformed header: %s', async (_name, header) => {
    expectError(await app.request('GET', '/v1/messages', { headers: { authorization: header(key) } }), 401, 'unauthorized');
  });

  it('accepts the scheme name in any case (RFC 7235)', async () => {
    const res = await app.request('GET', '/v1/messages', { headers: { authorization: `bearer ${key}` } });
    expect(res.status).toBe(200);
  });

  it('refuses a well-formed key nobody issued', async () => {
    expectError(await list(`hfk_${randomBytes(32).toString('base64url')}`), 401, 'unauthorized');
  });

  it('refuses a revoked key on the very next request, though it was just used', async () => {
    const made = await app.createKey(orgId, SCOPES);
    expect((await list(made.key)).status).toBe(200);
    await revokeApiKey(app.ctx, made.id);
    expectError(await list(made.key), 401, 'unauthorized');
    expectError(await send(made.key), 401, 'unauthorized');
  });

  it('refuses a revoked key on another API process sharing Redis and Postgres', async () => {
    const other = await startTestApp({ redisPrefix: app.ctx.config.redisPrefix });
    try {
      await redisReady(other);
      const made = await app.createKey(orgId, SCOPES);
      expect((await other.request('GET', '/v1/messages', { key: made.key })).status).toBe(200);
      await revokeApiKey(app.ctx, made.id);
      expectError(await other.request('GET', '/v1/messages', { key: made.key }), 401, 'unauthorized');
    } finally {
      await other.close();
    }
  });

  it('refuses an expired key', async () => {
    const made = await app.createKey(orgId, SCOPES, { expiresAt: new Date(Date.now() - 1000) });
    expectError(await list(made.key), 401, 'unauthorized');
  });

  it('refuses a key that expires after it was first used (and cached)', async () => {
    // Two seconds: time enough for the first use even on a busy machine.
    const expiresAt = new Date(Date.now() + 2000);
    const made = await app.createKey(orgId, SCOPES, { expiresAt });
    expect((await list(made.key)).status).toBe(200);
    // Served until the expiry, refused from then on: poll rather than guess how long that takes.
    let answer = await list(made.key);
    for (const deadline = Date.now() + 10_000; answer.status === 200 && Date.now() < deadline; answer = await list(made.key)) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt.getTime());
    expectError(answer, 401, 'unauthorized');
  });

  it('after a rotation refuses the old secret and accepts the new one with the same scopes', async () => {
    const made = await app.createKey(orgId, ['messages:read']);
    expect((await list(made.key)).status).toBe(200);
    const rotated = await rotateApiKey(app.ctx, made.id);
    expect(rotated).toBeDefined();
    expectError(await list(made.key), 401, 'unauthorized');
    expect((await list(rotated!.secret)).status).toBe(200);
    expectError(await send(rotated!.secret), 403, 'forbidden');
  });
});

describe('the order of refusals: 401, then 403, then validation', () => {
  it('answers 401 to an invalid body without a key', async () => {
    expectError(await send(undefined, { nope: true }), 401, 'unauthorized');
    expectError(await app.request('POST', '/v1/messages', { rawBody: 'not json', headers: { 'content-type': 'text/plain' } }), 401, 'unauthorized');
    expectError(await app.request('GET', '/v1/messages?limit=0'), 401, 'unauthorized');
    expectError(await app.request('GET', '/v1/messages/not.an.id'), 401, 'unauthorized');
  });

  it('answers 403 to an invalid body with a key that lacks the scope', async () => {
    const readOnly = await app.createKey(orgId, ['messages:read']);
    expectError(await send(readOnly.key, { nope: true }), 403, 'forbidden', /messages:send/);
    expectError(await app.request('POST', '/v1/messages', { key: readOnly.key, rawBody: '{', headers: { 'content-type': 'text/plain' } }), 403, 'forbidden');
    const sendOnly = await app.createKey(orgId, ['messages:send']);
    expectError(await app.request('GET', '/v1/messages?limit=0', { key: sendOnly.key }), 403, 'forbidden', /messages:read/);
  });

  it('answers 400 to an invalid body with the right key', async () => {
    expectError(await send(key, { nope: true }), 400, 'invalid_request');
  });
});

/** Every authenticated route the running API documents (routes added later are covered too). */
async function documentedRoutes(): Promise<{ method: string; path: string; scope: string }[]> {
  const doc = (await app.request('GET', '/openapi.json')).body;
  const routes = [];
  for (const [path, ops] of Object.entries<Record<string, { 'x-scope'?: string }>>(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (op['x-scope']) routes.push({ method: method.toUpperCase(), path: path.replaceAll(/\{\w+\}/g, 'msg_doesnotexist'), scope: op['x-scope'] });
    }
  }
  return routes;
}

describe('scopes', () => {
  it('documents the scope of every message route as the spec names it', async () => {
    const routes = await documentedRoutes();
    const scopeOf = (m: string, p: string) => routes.find((r) => r.method === m && r.path === p)?.scope;
    expect(scopeOf('POST', '/v1/messages')).toBe('messages:send');
    expect(scopeOf('GET', '/v1/messages')).toBe('messages:read');
    expect(scopeOf('GET', '/v1/messages/msg_doesnotexist')).toBe('messages:read');
    expect(scopeOf('POST', '/v1/messages/msg_doesnotexist/cancel')).toBe('messages:send');
    expect(scopeOf('POST', '/v1/messages/msg_doesnotexist/resend')).toBe('messages:send');
  });

  it('refuses every route with 401 without a key and 403 with a key holding every other scope', async () => {
    const routes = await documentedRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(5);
    for (const r of routes) {
      const others = SCOPES.filter((s) => s !== r.scope);
      const { key: lacking } = await app.createKey(orgId, others);
      const opts = r.method === 'GET' || r.method === 'DELETE' ? {} : { body: {} };
      const where = `${r.method} ${r.path}`;
      expect((await app.request(r.method, r.path, opts)).status, where).toBe(401);
      const refused = await app.request(r.method, r.path, { ...opts, key: lacking });
      expect(refused.status, where).toBe(403);
      expectError(refused, 403, 'forbidden', r.scope);
    }
  });

  it('lets a key with only the needed scope past the scope check', async () => {
    const { key: reader } = await app.createKey(orgId, ['messages:read']);
    expect((await list(reader)).status).toBe(200);
    expectError(await app.request('GET', '/v1/messages/msg_doesnotexist', { key: reader }), 404, 'not_found');
    const { key: sender } = await app.createKey(orgId, ['messages:send']);
    expect((await send(sender)).status).toBe(202);
    expectError(await app.request('POST', '/v1/messages/msg_doesnotexist/cancel', { key: sender }), 404, 'not_found');
  });
});

describe('per-key request rate', () => {
  it('answers 429 rate_limited with Retry-After once the burst is spent', async () => {
    const limited = await app.createKey(orgId, SCOPES, { ratePerSecond: 1, rateBurst: 5 });
    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 12 }, () => list(limited.key)));
    const ok = results.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(5);
    // The burst, plus one token a second for as long as the requests were in flight (a busy machine stretches it).
    expect(ok).toBeLessThanOrEqual(5 + Math.ceil((Date.now() - started) / 1000));
    const refused = results.filter((r) => r.status !== 200);
    for (const r of refused) {
      expectError(r, 429, 'rate_limited');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });

  it('limits each key on its own: another key of the organization is still served', async () => {
    const limited = await app.createKey(orgId, SCOPES, { ratePerSecond: 1, rateBurst: 1 });
    await list(limited.key);
    expect((await list(limited.key)).status).toBe(429);
    expect((await list(key)).status).toBe(200);
  });

  it('serves the key again once a token has refilled', async () => {
    const limited = await app.createKey(orgId, SCOPES, { ratePerSecond: 5, rateBurst: 1 });
    expect((await list(limited.key)).status).toBe(200);
    expect((await list(limited.key)).status).toBe(429);
    await new Promise((r) => setTimeout(r, 250));
    expect((await list(limited.key)).status).toBe(200);
  });
});
