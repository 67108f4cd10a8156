import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import uWS from 'uWebSockets.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { rawHttp, rawRequest, type RawResponse } from '../support/raw-http.js';
import { countRows } from '../api/expect-error.js';
import { apiRoutes } from '../../src/app/routes.js';

/** The error contract on a raw answer: status, code, the three strings, x-request-id. */
function expectRawError(res: RawResponse, status: number, code: string, message?: RegExp): void {
  const body = JSON.parse(res.body);
  expect({ status: res.status, code: body.error?.code }, res.body).toEqual({ status, code });
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.requestId).toBe(res.headers['x-request-id']);
  if (message) expect(body.error.message).toMatch(message);
}

describe('what uWebSockets.js 20.30 gives for raw header bytes (src/http/request-headers.ts relies on it)', () => {
  let url: string;
  let close: () => void;
  let seen: { getHeader: string; forEach: string[] } | undefined;
  beforeAll(async () => {
    const app = uWS.App();
    app.get('/h', (res, req) => {
      const forEach: string[] = [];
      req.forEach((name, value) => name === 'x-k' && forEach.push(value));
      seen = { getHeader: req.getHeader('x-k'), forEach };
      res.end('ok');
    });
    const socket = await new Promise<uWS.us_listen_socket>((resolve) => app.listen('127.0.0.1', 0, (s) => resolve(s)));
    url = `http://127.0.0.1:${uWS.us_socket_local_port(socket)}`;
    close = () => uWS.us_listen_socket_close(socket);
  });
  afterAll(() => close());

  const read = async (...values: string[]) => {
    seen = undefined;
    // Our side closes after writing: uWS answers a refused request by nothing, and would keep the socket for its idle timeout.
    const res = await rawRequest(url, rawHttp('GET /h HTTP/1.1', ['Host: x', ...values.map((v) => `X-K: ${v}`)]), { endAfterWrite: true });
    return { status: res.status, ...(seen ?? {}) };
  };

  it('getHeader reads bytes inside a value one character per byte; forEach decodes UTF-8', async () => {
    expect(await read('a\xc3\xa9b')).toEqual({ status: 200, getHeader: 'a\xc3\xa9b', forEach: ['aéb'] });
    expect(await read('a\x7fb')).toEqual({ status: 200, getHeader: 'a\x7fb', forEach: ['a\x7fb'] });
  });

  it('trims bytes of 0x80 and above from both ends, as it trims spaces (they never reach JavaScript)', async () => {
    expect(await read('cl\xc3\xa9')).toEqual({ status: 200, getHeader: 'cl', forEach: ['cl'] });
    expect(await read('\xc3\xa9cl')).toEqual({ status: 200, getHeader: 'cl', forEach: ['cl'] });
    expect(await read('\xc3\xa9')).toEqual({ status: 200, getHeader: '', forEach: [''] });
  });

  it('closes the connection unanswered on a control byte, and getHeader gives the first of repeated headers', async () => {
    expect(await read('a\x01b')).toEqual({ status: 0 });
    expect(await read('one', 'two')).toEqual({ status: 200, getHeader: 'one', forEach: ['one', 'two'] });
  });
});

describe('the API on raw bytes', () => {
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

  const alive = async () => expect((await rawRequest(app.url, rawHttp('GET /openapi.json HTTP/1.1', ['Host: x']))).status).toBe(200);

  describe('a path id with a bad percent escaped (URIError in decodeURIComponent used to end the process)', () => {
    const escapes = ['%ff', '%C0%AE', '%', '%E0%A4%A', 'a%', '%%', '%uD800', '%ED%A0%80'];
    const withIds = () => apiRoutes(app.ctx).filter((r) => r.path.includes(':'));
    const request = (method: string, path: string, auth: string[]) =>
      rawHttp(`${method.toUpperCase()} ${path} HTTP/1.1`, ['Host: x', 'Content-Type: application/json', 'Content-Length: 2', ...auth], '{}');

    it('answers 404 not_found to a client with a key, on every route with a path id', async () => {
      for (const route of withIds()) {
        for (const escaped of escapes) {
          const path = route.path.replace(/:\w+/g, escaped);
          const auth = route.path.startsWith('/device/') ? [] : [`Authorization: Bearer ${key}`];
          // The dashboard's own routes take a member's session, never a key: 401 first.
          const found = auth.length > 0 && !('role' in route.auth);
          const res = await rawRequest(app.url, request(route.method, path, auth));
          expectRawError(res, found ? 404 : 401, found ? 'not_found' : 'unauthorized');
        }
      }
      await alive();
    });

    it('answers 401 to a client without a key (authentication comes first), and keeps serving', async () => {
      for (const escaped of escapes) expectRawError(await rawRequest(app.url, request('get', `/v1/messages/${escaped}`, [])), 401, 'unauthorized');
      await alive();
    });
  });

  describe('Idempotency-Key', () => {
    const send = (...headers: string[]) =>
      rawRequest(
        app.url,
        rawHttp(
          'POST /v1/messages HTTP/1.1',
          ['Host: x', `Authorization: Bearer ${key}`, 'Content-Type: application/json', 'Content-Length: 42', ...headers],
          '{"to":"+261341234567","body":"Salama 123"}',
        ),
      );
    const written = async () => [await countRows(app, 'messages', orgId), await countRows(app, 'batches', orgId)];

    it.each([
      ['bytes uWS trims away entirely (é)', ['Idempotency-Key: \xc3\xa9']],
      ['an empty value', ['Idempotency-Key:']],
      ['only spaces and tabs', ['Idempotency-Key:  \t ']],
      ['a UTF-8 character inside', ['Idempotency-Key: caf\xc3\xa9-1']],
      ['a byte of 0x7f inside', ['Idempotency-Key: a\x7fb']],
      ['a space inside', ['Idempotency-Key: order 1']],
      ['129 characters', [`Idempotency-Key: ${'k'.repeat(129)}`]],
      ['the header twice', ['Idempotency-Key: order-1', 'idempotency-key: order-2']],
    ])('refuses %s: 400 naming the header, nothing written', async (_name, headers) => {
      const before = await written();
      expectRawError(await send(...headers), 400, 'invalid_request', /idempotency-key/);
      expect(await written()).toEqual(before);
    });

    it('accepts 1 to 128 characters of 0x21-0x7e, and replays the batch for the same key', async () => {
      const long = `${Date.now()}`.padEnd(128, '!~');
      const first = await send(`Idempotency-Key: ${long}`);
      expect(first.status, first.body).toBe(202);
      const again = await send(`Idempotency-Key: ${long}`);
      expect(JSON.parse(again.body)).toEqual(JSON.parse(first.body));
    });
  });

  it('refuses an Authorization header with a byte outside 0x21-0x7e inside the key: 401, never another key', async () => {
    for (const bad of [`${key.slice(0, 10)}\xc3\xa9${key.slice(10)}`, `${key.slice(0, 10)}\xff${key.slice(11)}`, `${key.slice(0, 10)}\x7f${key.slice(11)}`]) {
      const res = await rawRequest(app.url, rawHttp('GET /v1/messages HTTP/1.1', ['Host: x', `Authorization: Bearer ${bad}`]));
      expectRawError(res, 401, 'unauthorized');
    }
    const ok = await rawRequest(app.url, rawHttp('GET /v1/messages HTTP/1.1', ['Host: x', `Authorization: Bearer ${key}`]));
    expect(ok.status).toBe(200);
  });
});
