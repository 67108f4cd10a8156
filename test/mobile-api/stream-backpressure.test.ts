import { expect, it } from 'vitest';
import { connect } from 'node:net';
import { pushAppEvent } from '../../src/devices/app-events.js';
import { registeredPhone, useMobileApp } from './support.js';

const env = useMobileApp();

it('closes the stream of a phone that stops reading instead of buffering for it without limit', async () => {
  const phone = await registeredPhone(env.app, env.orgId);
  const { port } = new URL(env.app.url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = 0;
  let closed = false;
  socket.on('data', (chunk) => {
    received += chunk.length;
  });
  socket.on('close', () => {
    closed = true;
  });
  socket.write(`GET /mobile/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${phone.token}\r\nUser-Agent: ${phone.userAgent}\r\n\r\n`);
  await expect.poll(() => received).toBeGreaterThan(0);
  await expect.poll(async () => (await env.app.request('GET', `/v1/devices/${phone.id}`, { key: env.key })).body.socket.connected).toBe(true);
  socket.pause(); // the phone stops reading: the kernel's buffers fill, then uWS reports backpressure

  const big = 'x'.repeat(32 * 1024);
  const target = { orgId: env.orgId, deviceId: phone.id! };
  let pushed = 0;
  const open = async () => (await env.app.request('GET', `/v1/devices/${phone.id}`, { key: env.key })).body.socket.connected as boolean;
  // At most ~64 MiB of events (what would be held without a bound); the stream closes long before.
  while (pushed < 2048 && (await open())) {
    await pushAppEvent(
      env.app.ctx,
      target,
      Array.from({ length: 16 }, (_, i) => ({ event: 'MessageCancelled' as const, data: { messageId: `${pushed + i}${big}` } })),
    );
    pushed += 16;
  }
  expect(await open()).toBe(false);
  expect(pushed).toBeLessThan(2048);
  // The connection is closed at once (what was buffered for it dropped), not left open until an
  // idle timeout (uWS: 10 s) as an ended response on a kept-alive connection would be.
  socket.resume();
  await expect.poll(() => closed, { timeout: 5000 }).toBe(true);
  expect(received).toBeLessThan(pushed * big.length);
  socket.destroy();
});

it('holds the frames of a phone that reads slowly and writes them, in order, once it reads again', async () => {
  const phone = await registeredPhone(env.app, env.orgId);
  const { port } = new URL(env.app.url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  socket.write(`GET /mobile/v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${phone.token}\r\nUser-Agent: ${phone.userAgent}\r\n\r\n`);
  await expect.poll(() => text.includes('SettingsUpdated')).toBe(true);
  socket.pause();
  // 10 MiB in 40 frames: past what the kernel takes for a reader that stopped (a few MiB), short of the 64 frames a stream holds.
  const big = 'x'.repeat(256 * 1024);
  for (let i = 0; i < 40; i++) await pushAppEvent(env.app.ctx, { orgId: env.orgId, deviceId: phone.id! }, { event: 'MessageCancelled', data: { messageId: `${i}:${big}` } });
  socket.resume();
  const ids = () => [...text.matchAll(/"messageId":"(\d+):/g)].map((m) => Number(m[1]));
  await expect.poll(() => ids().length).toBe(40);
  expect(ids()).toEqual(Array.from({ length: 40 }, (_, i) => i));
  socket.destroy();
});
