import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairTestPhone, startPhoneTestApp, type PhoneTestApp } from '../support/phones.js';

let app: PhoneTestApp;
let token: string;

beforeAll(async () => {
  app = await startPhoneTestApp();
  const { org } = await app.createOrg();
  ({ token } = await pairTestPhone(app, org.id));
});
afterAll(() => app.close());

type Upgrade = { kind: 'upgraded'; status: number } | { kind: 'refused'; status: number; headers: Record<string, unknown>; body: any };

/** A WebSocket handshake by hand, to see the server's answer as an HTTP client would. */
function upgrade(authorization?: string): Promise<Upgrade> {
  return new Promise((resolve, reject) => {
    const req = request(`${app.url}/device/v1/socket`, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...(authorization ? { authorization } : {}),
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ kind: 'upgraded', status: res.statusCode! });
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ kind: 'refused', status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the phone socket handshake', () => {
  it('upgrades a live device token', async () => {
    expect(await upgrade(`Bearer ${token}`)).toEqual({ kind: 'upgraded', status: 101 });
  });

  it.each([
    ['no token', undefined],
    ['an unknown token', 'Bearer hfd_not-a-real-token'],
    ['an API key', 'Bearer hfk_not-a-device-token'],
  ])('refuses %s with the spec error shape, its request id in the header', async (_what, authorization) => {
    const answer = await upgrade(authorization);
    expect(answer.kind).toBe('refused');
    if (answer.kind !== 'refused') return;
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String), requestId: expect.stringMatching(/^req_/) } });
    expect(answer.headers['x-request-id']).toBe(answer.body.error.requestId);
    expect(answer.headers['www-authenticate']).toBe('Bearer');
  });
});
