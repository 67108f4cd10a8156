import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeWebhookConnections, openWebhookPoolCount } from '../../../src/webhooks/delivery/connection-pools.js';
import { createDevCertificate } from '../../../src/webhooks/delivery/dev-certificate.js';
import { postWebhook, type WebhookPostRequest } from '../../../src/webhooks/delivery/post-webhook.js';
import { checkWebhookUrl } from '../../../src/webhooks/delivery/safe-url.js';
import { startHttpsReceiver, type HttpsReceiver } from '../../support/https-receiver.js';

let receiver: HttpsReceiver;

beforeAll(async () => {
  // webhook.test and other.test never resolve: reaching them proves the pinned address is used.
  receiver = await startHttpsReceiver({ names: ['localhost', '127.0.0.1', 'webhook.test'] });
});
afterAll(async () => {
  closeWebhookConnections();
  await receiver.close();
});
afterEach(() => {
  receiver.respondWith(() => ({ status: 200 }));
  receiver.requests.length = 0;
});

function deliveryTo(path = 'hook', overrides: Partial<WebhookPostRequest> = {}): WebhookPostRequest {
  return {
    url: new URL(`https://localhost:${receiver.port}/${path}`),
    address: '127.0.0.1',
    family: 4,
    body: JSON.stringify({ id: 'evt_1', event: 'message.sent', data: { id: 'msg_1', status: 'sent' } }),
    headers: { 'Content-Type': 'application/json', 'Hafatra-Event-Id': 'evt_1' },
    timeoutMs: 5_000,
    ca: receiver.ca,
    ...overrides,
  };
}

describe('postWebhook', () => {
  it('delivers the body and headers and reports a 2xx as success', async () => {
    receiver.respondWith(() => ({ status: 204 }));
    const result = await postWebhook(deliveryTo('in?x=1'));
    expect(result).toMatchObject({ ok: true, statusCode: 204, error: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    const [received] = receiver.requests;
    expect(received?.method).toBe('POST');
    expect(received?.path).toBe('/in?x=1');
    expect(received?.headers['hafatra-event-id']).toBe('evt_1');
    expect(received?.headers['content-length']).toBe(String(received?.rawBody.length));
    expect(received?.rawBody.toString()).toBe(deliveryTo().body);
  });

  it('works end to end with an allow-listed URL checked by checkWebhookUrl', async () => {
    const checked = await checkWebhookUrl(receiver.url, { allowHosts: ['localhost'] });
    if (!checked.ok) throw new Error(checked.reason);
    // The receiver listens on IPv4 only.
    const result = await postWebhook({ ...deliveryTo(), url: checked.url, address: '127.0.0.1', family: 4 });
    expect(result.ok).toBe(true);
  });

  it('connects to the pinned address while keeping the hostname for Host, SNI and the certificate', async () => {
    const url = new URL(`https://webhook.test:${receiver.port}/pinned`);
    const result = await postWebhook(deliveryTo('', { url }));
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(receiver.requests[0]?.headers.host).toBe(`webhook.test:${receiver.port}`);
  });

  it('fails with a TLS error when the certificate does not name the host', async () => {
    const url = new URL(`https://other.test:${receiver.port}/`);
    const result = await postWebhook(deliveryTo('', { url }));
    expect(result.ok).toBe(false);
    expect(result.statusCode).toBeNull();
    expect(result.error).toMatch(/^tls error: .*other\.test/);
    expect(receiver.requests).toHaveLength(0);
  });

  it('fails with a TLS error when the certificate is not trusted', async () => {
    const selfSigned = await postWebhook(deliveryTo('', { ca: undefined }));
    expect(selfSigned).toMatchObject({ ok: false, statusCode: null });
    expect(selfSigned.error).toMatch(/^tls error: .*certificate/);
    const otherCa = await postWebhook(deliveryTo('', { ca: createDevCertificate().cert }));
    expect(otherCa.error).toMatch(/^tls error: /);
    expect(receiver.requests).toHaveLength(0);
  });

  it('reports a 500 as failure with its status code', async () => {
    receiver.respondWith(() => ({ status: 500, body: 'boom' }));
    expect(await postWebhook(deliveryTo())).toMatchObject({ ok: false, statusCode: 500, error: 'HTTP 500' });
  });

  it('reports other non-2xx answers, such as 404 and 410, as failures', async () => {
    receiver.respondWith((_req, index) => ({ status: index === 0 ? 404 : 410 }));
    expect(await postWebhook(deliveryTo())).toMatchObject({ ok: false, statusCode: 404 });
    expect(await postWebhook(deliveryTo())).toMatchObject({ ok: false, statusCode: 410 });
  });

  it('does not follow redirects', async () => {
    receiver.respondWith((req) => (req.path === '/hook' ? { redirectTo: '/elsewhere' } : { status: 200 }));
    const result = await postWebhook(deliveryTo());
    expect(result).toMatchObject({ ok: false, statusCode: 302, error: 'redirect not followed' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hook']);
  });

  it('times out when the receiver never answers', async () => {
    receiver.respondWith(() => ({ hang: true }));
    const result = await postWebhook(deliveryTo('', { timeoutMs: 300 }));
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'timeout' });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(2_000);
  });

  it('counts a slow answer against the same total timeout', async () => {
    receiver.respondWith(() => ({ status: 200, delayMs: 600 }));
    expect(await postWebhook(deliveryTo('', { timeoutMs: 200 }))).toMatchObject({ ok: false, error: 'timeout' });
    expect(await postWebhook(deliveryTo('', { timeoutMs: 3_000 }))).toMatchObject({ ok: true, statusCode: 200 });
  });

  it('reads only a capped part of a big response body and does not wait for the rest', async () => {
    receiver.respondWith(() => ({ endlessBody: true }));
    const result = await postWebhook(deliveryTo('', { timeoutMs: 10_000 }));
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(result.durationMs).toBeLessThan(3_000);
  });

  it('reports a refused connection', async () => {
    const closed = await startHttpsReceiver();
    const port = closed.port;
    await closed.close();
    const result = await postWebhook(deliveryTo('', { url: new URL(`https://localhost:${port}/`) }));
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'connection error: ECONNREFUSED' });
  });

  it('reuses the keep-alive connection for consecutive deliveries, until connections are closed', async () => {
    closeWebhookConnections(); // the earlier tests' connections
    receiver.respondWith(() => ({ status: 200, body: 'thanks' }));
    for (let i = 0; i < 20; i += 1) await postWebhook(deliveryTo());
    expect(new Set(receiver.requests.map((r) => r.remotePort)).size).toBe(1);
    expect(openWebhookPoolCount()).toBeGreaterThan(0);
    closeWebhookConnections();
    expect(openWebhookPoolCount()).toBe(0);
    await postWebhook(deliveryTo());
    expect(receiver.requests[20]?.remotePort).not.toBe(receiver.requests[0]?.remotePort);
  });

  it('sends one delivery at a time on a connection, opening others for deliveries in parallel', async () => {
    closeWebhookConnections();
    receiver.respondWith(() => ({ status: 200, delayMs: 100 }));
    const results = await Promise.all(Array.from({ length: 10 }, () => postWebhook(deliveryTo())));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(new Set(receiver.requests.map((r) => r.remotePort)).size).toBe(10);
  });

  it('reaches an IPv6 address over plain HTTP, the URL kept as the Host', async () => {
    const seen: Array<{ host?: string; path?: string; from?: string }> = [];
    const server = http.createServer((req, res) => {
      seen.push({ host: req.headers.host, path: req.url, from: req.socket.remoteAddress });
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await postWebhook(deliveryTo('', { url: new URL(`http://[::1]:${port}/v6?x=1`), address: '::1', family: 6 }));
      expect(result).toMatchObject({ ok: true, statusCode: 200, responseExcerpt: 'ok' });
      expect(seen).toEqual([{ host: `[::1]:${port}`, path: '/v6?x=1', from: '::1' }]);
    } finally {
      closeWebhookConnections();
      server.close();
    }
  });

  it('handles many deliveries in parallel', async () => {
    const results = await Promise.all(Array.from({ length: 200 }, () => postWebhook(deliveryTo())));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(receiver.requests).toHaveLength(200);
  });
});
