import { once } from 'node:events';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { pairTestPhone, startPhoneTestApp, type PhoneTestApp } from '../support/phones.js';

let app: PhoneTestApp;

beforeAll(async () => {
  app = await startPhoneTestApp();
});
afterAll(() => app.close());

/** A raw socket (not DeviceClient, which also treats close 4001 alone as revoked): every frame and the close code. */
function rawSocket(token: string) {
  const ws = new WebSocket(`${app.url.replace('http', 'ws')}/device/v1/socket`, { headers: { authorization: `Bearer ${token}` } });
  const frames: Array<Record<string, unknown>> = [];
  ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as Record<string, unknown>));
  const closed = once(ws, 'close').then(([code]) => code as number);
  return { ws, frames, closed };
}

it('sends an open socket the revoked frame, then closes it with 4001, when its device is revoked', async () => {
  const { org, key } = await app.createOrg();
  const phone = await pairTestPhone(app, org.id);
  const socket = rawSocket(phone.token);
  await once(socket.ws, 'open');
  // An answered frame: the server holds the session by now.
  socket.ws.send(JSON.stringify({ type: 'claim', ref: 'c1', max: 1 }));
  await expect.poll(() => socket.frames.some((f) => f.ref === 'c1'), { timeout: 5000 }).toBe(true);

  expect((await app.request('DELETE', `/v1/devices/${phone.deviceId}`, { key })).status).toBe(200);
  expect(await socket.closed).toBe(4001);
  expect(socket.frames.at(-1)).toEqual({ type: 'revoked', reason: 'device revoked' });
});
