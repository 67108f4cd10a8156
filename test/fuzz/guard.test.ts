import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import uWS from 'uWebSockets.js';
import { guarded, replySafely } from '../../src/http/guard.js';
import { createLogger } from '../../src/logging/logger.js';
import { rawHttp, rawRequest } from '../support/raw-http.js';

/**
 * A handler that throws must cost one 500, not the process: uWS turns an exception thrown in a
 * handler into an uncaught exception, which ends Node (and this test file's worker with it).
 */
describe('guarded uWS handlers', () => {
  let url: string;
  let close: () => void;
  const log = createLogger('silent');

  beforeAll(async () => {
    const app = uWS.App();
    app.get(
      '/throws',
      guarded(log, 'get /throws', () => {
        throw new URIError('URI malformed');
      }),
    );
    app.get(
      '/throws-after-await',
      guarded(log, 'get /throws-after-await', (res, _req, { state, requestId }) => {
        void Promise.resolve().then(() => replySafely(res, state, requestId, { status: 200, body: { n: 1n } }, log));
      }),
    );
    app.ws('/socket', {
      upgrade: guarded(log, 'upgrade /socket', () => {
        throw new TypeError('upgrade failed');
      }),
    });
    app.get(
      '/ok',
      guarded(log, 'get /ok', (res) => void res.end('ok')),
    );
    const socket = await new Promise<uWS.us_listen_socket>((resolve) => app.listen('127.0.0.1', 0, (s) => resolve(s)));
    url = `http://127.0.0.1:${uWS.us_socket_local_port(socket)}`;
    close = () => uWS.us_listen_socket_close(socket);
  });
  afterAll(() => close());

  const get = (path: string, headers: string[] = []) => rawRequest(url, rawHttp(`GET ${path} HTTP/1.1`, ['Host: x', ...headers]));

  it.each([
    ['a request handler throws', '/throws', []],
    ['a reply cannot be serialized after an await', '/throws-after-await', []],
    ['an upgrade handler throws', '/socket', ['Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 13']],
  ])('answers 500 internal_error in the error shape when %s, and keeps serving', async (_name, path, headers) => {
    const res = await get(path, headers as string[]);
    expect(res.status).toBe(500);
    const body = JSON.parse(res.body);
    expect(body.error.code).toBe('internal_error');
    expect(body.error.requestId).toBe(res.headers['x-request-id']);
    expect((await get('/ok')).status).toBe(200);
  });
});
