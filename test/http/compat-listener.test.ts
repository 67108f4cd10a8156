import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { pairTestPhone, startPhoneTestApp, type PhoneTestApp } from '../support/phones.js';
import { loadConfig } from '../../src/config/config.js';
import { connectRaw, rawGet, type RawResponse } from '../support/raw-http-client.js';

// uWS 20.30 never answers HTTP/1.0 (nor HTTP/1.1 without Host: closed unanswered) and closes a connection whose
// second request arrives while the first is being answered: HAFATRA_COMPAT_PORT answers them.
let app: PhoneTestApp;
let key: string;
let token: string;
let compat: number;

beforeAll(async () => {
  app = await startPhoneTestApp({ compatPort: 0 });
  const made = await app.createOrg();
  key = made.key;
  ({ token } = await pairTestPhone(app, made.org.id));
  compat = app.compatPort!;
});
afterAll(() => app.close());

const json = (r: RawResponse) => JSON.parse(r.body.toString('utf8'));
const withKey = `Authorization: Bearer ${'KEY'}\r\n`;
const auth = (text: string) => text.replace('KEY', key);

describe('the compatibility listener', () => {
  it('answers HTTP/1.0, as nginx speaks to its backends by default, and closes as 1.0 expects', async () => {
    const c = await connectRaw(compat);
    c.send('GET /openapi.json HTTP/1.0\r\n\r\n');
    const [res] = await c.responses(1);
    expect(res!.status).toBe(200);
    expect(res!.headers['content-type']).toMatch(/^application\/json/);
    expect(json(res!).openapi).toBe('3.1.0');
    await c.closed;
  });

  it('answers HTTP/1.0 keep-alive, with the API key and error shape intact', async () => {
    const c = await connectRaw(compat);
    c.send('GET /v1/messages?limit=1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n');
    const [refused] = await c.responses(1);
    expect(refused!.status).toBe(401);
    expect(json(refused!).error).toMatchObject({ code: 'unauthorized', requestId: refused!.headers['x-request-id'] });
    c.send(auth(`GET /v1/messages?limit=1 HTTP/1.0\r\nConnection: keep-alive\r\n${withKey}\r\n`));
    const [, listed] = await c.responses(2);
    expect(listed!.status).toBe(200);
    expect(json(listed!).messages).toEqual(expect.any(Array));
  });

  it('refuses HTTP/1.1 without Host at once, in the error shape (uWS closes it unanswered)', async () => {
    const c = await connectRaw(compat);
    c.send('GET /openapi.json HTTP/1.1\r\n\r\n');
    const [res] = await c.responses(1);
    expect(res!.status).toBe(400);
    expect(json(res!).error).toMatchObject({ code: 'invalid_request', requestId: res!.headers['x-request-id'] });
  });

  it('refuses an Idempotency-Key with a byte of 0x80 or above, which only it sees whole, and stores nothing', async () => {
    const before = await app.ctx.db.query(`SELECT count(*)::int AS n FROM messages`);
    const body = JSON.stringify({ to: '+261340000009', body: 'key with a high byte' });
    const c = await connectRaw(compat);
    c.send(
      Buffer.concat([
        Buffer.from(auth(`POST /v1/messages HTTP/1.1\r\nHost: x\r\n${withKey}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nIdempotency-Key: order-`)),
        Buffer.from([0xc3, 0xa9]),
        Buffer.from(`\r\n\r\n${body}`),
      ]),
    );
    const [res] = await c.responses(1);
    expect(res!.status).toBe(400);
    expect(json(res!).error.message).toContain('idempotency-key: must be 1 to 128 printable ASCII characters');
    expect((await app.ctx.db.query(`SELECT count(*)::int AS n FROM messages`)).rows).toEqual(before.rows);
  });

  it('leaves the main port closing a Host-less HTTP/1.1 request with headers at once, without an answer', async () => {
    const c = await connectRaw(Number(new URL(app.url).port));
    const sentAt = performance.now();
    c.send('GET /openapi.json HTTP/1.1\r\nUser-Agent: probe\r\n\r\n');
    await c.closed;
    expect(c.bytes().length).toBe(0);
    // Closed at once, not at the idle timeout (10 s), which only a request with no header at all waits for (docs/operations.md).
    expect(performance.now() - sentAt).toBeLessThan(5000);
  });

  it('answers pipelined requests, each in order, where uWS would close the connection', async () => {
    const c = await connectRaw(compat);
    const body = JSON.stringify({ to: '+261340000001', body: 'pipelined' });
    c.send(
      auth(rawGet('/v1/messages?limit=1', withKey)) +
        auth(`POST /v1/messages HTTP/1.1\r\nHost: x\r\n${withKey}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`) +
        rawGet('/v1/messages?limit=1') +
        rawGet('/openapi.json'),
    );
    const [list, sent, refused, doc] = await c.responses(4);
    expect(list!.status).toBe(200);
    expect(sent!.status).toBe(202);
    expect(json(sent!).messages[0]).toMatchObject({ to: '+261340000001' });
    expect(refused!.status).toBe(401);
    expect(json(doc!).openapi).toBe('3.1.0');
  });

  it('passes phone sockets through', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${compat}/device/v1/socket`, { headers: { authorization: `Bearer ${token}` } });
    // The server may push the queued job before it answers the claim: the answer is the frame with our ref.
    const answer = await new Promise<any>((resolve, reject) => {
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data));
        if (frame.ref === 'r1') resolve(frame);
      });
      ws.once('error', reject);
      ws.once('open', () => ws.send(JSON.stringify({ type: 'claim', ref: 'r1', max: 1 })));
    });
    expect(answer).toMatchObject({ type: 'ack', ref: 'r1' });
    ws.close();
  });
});

describe('HAFATRA_COMPAT_PORT', () => {
  it('is off unless set', () => {
    expect(loadConfig({}).compatPort).toBeNull();
    expect(loadConfig({ HAFATRA_COMPAT_PORT: '8081' }).compatPort).toBe(8081);
    expect(() => loadConfig({ HAFATRA_COMPAT_PORT: 'nginx' })).toThrow(/compatPort/);
  });
});
