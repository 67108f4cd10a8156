import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:net';
import {
  AuthenticationError,
  Hafatra,
  HafatraConnectionError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitedError,
  ServerError,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
} from '../../clients/typescript/src/index.js';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver.js';
import { eventually } from '../support/phones.js';
import { MOBILE_MONEY_SAMPLES } from '../../src/phone/sample-sms.js';
import { startClientRig, type ClientRig } from './rig.js';
import { startFlakyProxy } from './flaky-proxy.js';

/**
 * The TypeScript client against a real Hafatra: a send delivered by a simulated phone, its
 * webhook verified, 500 recipients paged back, and each failure the client must get right
 * (retries of a lost answer under one Idempotency-Key, Retry-After, no retry of a 4xx).
 */
let rig: ClientRig;
let receiver: HttpsReceiver;
let client: Hafatra;

/** The real fetch, counting attempts and their headers; `dropFirstAnswer` loses the first answer after the server has it. */
function recordingFetch(opts: { dropFirstAnswer?: boolean } = {}) {
  const attempts: { url: string; method: string; headers: Record<string, string> }[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    attempts.push({ url: String(input), method: init?.method ?? 'GET', headers: { ...(init?.headers as Record<string, string>) } });
    const res = await fetch(input, init);
    if (opts.dropFirstAnswer && attempts.length === 1) {
      await res.arrayBuffer();
      throw new TypeError('fetch failed (connection reset after the request was sent)');
    }
    return res;
  };
  return { attempts, fetch: wrapped };
}

const recipients = (count: number, prefix = '+2613433') => Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(5, '0')}`);

beforeAll(async () => {
  receiver = await startHttpsReceiver();
  rig = await startClientRig({ receiverCa: receiver.ca });
  client = new Hafatra({ baseUrl: rig.app.url, apiKey: rig.key, baseDelayMs: 20 });
}, 60_000);
afterAll(async () => {
  await rig?.close();
  await receiver?.close();
});

describe('the whole cycle', () => {
  it('sends, a phone delivers, waitForTerminal sees it delivered and the webhook verifies into a typed event', async () => {
    const { endpoint, secret } = await client.createWebhookEndpoint({ url: receiver.url, eventTypes: ['message.sent', 'message.delivered'] });
    const sent = await client.sendMessages({ to: '+261340000001', body: 'Salama from the SDK', priority: 'high', validFor: 600 });
    expect(sent.messages).toHaveLength(1);
    const id = sent.messages[0]!.id;
    expect(sent.messages[0]!.status).toBe('queued');

    const done = await client.waitForTerminal(id, { timeoutMs: 20_000, intervalMs: 50 });
    expect(done.status).toBe('delivered');
    expect(done.events.map((e) => e.toStatus)).toEqual(['queued', 'claimed', 'sending', 'sent', 'delivered']);

    const delivery = await eventually(() => receiver.requests.find((r) => r.headers['hafatra-event-type'] === 'message.delivered'), 20_000, 'the message.delivered webhook');
    const event: WebhookEvent = await verifyWebhook(delivery.rawBody, delivery.headers, secret);
    expect(event.event).toBe('message.delivered');
    if (event.event !== 'message.delivered') throw new Error('narrowing');
    expect(event.data).toMatchObject({ id, status: 'delivered', to: '+261340000001' });
    expect(event.id).toBe(delivery.headers['hafatra-event-id']);
    // Both secrets during a rotation: either one verifies.
    await expect(verifyWebhook(delivery.rawBody.toString('utf8'), new Headers({ 'Hafatra-Signature': String(delivery.headers['hafatra-signature']) }), ['whsec_old', secret])).resolves.toMatchObject({
      id: event.id,
    });

    await expect(verifyWebhook(Buffer.concat([delivery.rawBody, Buffer.from(' ')]), delivery.headers, secret)).rejects.toThrow(/does not match/);
    await expect(verifyWebhook(delivery.rawBody, delivery.headers, 'whsec_wrong')).rejects.toBeInstanceOf(WebhookVerificationError);
    const t = Number(/t=(\d+)/.exec(String(delivery.headers['hafatra-signature']))![1]);
    await expect(verifyWebhook(delivery.rawBody, delivery.headers, secret, { nowSeconds: t + 301 })).rejects.toThrow(/tolerance/);
    await expect(verifyWebhook(delivery.rawBody, delivery.headers, secret, { nowSeconds: t + 300 })).resolves.toMatchObject({ id: event.id });
    await expect(verifyWebhook(delivery.rawBody, {}, secret)).rejects.toThrow(/no Hafatra-Signature/);
    await expect(verifyWebhook(delivery.rawBody, { 'hafatra-signature': 't=abc,v1=00' }, secret)).rejects.toThrow(/malformed/);
    await client.deleteWebhookEndpoint(endpoint.id);
  });

  it('pages received SMS, mobile-money records and the delivery log, and their webhooks verify into typed events', async () => {
    const { endpoint, secret } = await client.createWebhookEndpoint({ url: receiver.url, eventTypes: ['incoming.received', 'mobile_money.detected'] });
    const payment = MOBILE_MONEY_SAMPLES[0]!;
    await rig.receive('+261341112233', 'Salama, see you at 10');
    await rig.receive(payment.from, payment.body);
    await rig.receive('+261341112244', 'Misaotra');
    const incoming = [];
    for await (const sms of client.iterIncoming({ limit: 1 })) incoming.push(sms);
    expect(incoming.map((m) => m.body)).toEqual(['Misaotra', payment.body, 'Salama, see you at 10']);
    expect((await client.getIncoming(incoming[1]!.id)).from).toBe(payment.from);

    const money = await eventually(
      async () => {
        const all = [];
        for await (const record of client.iterMobileMoney({ limit: 1 })) all.push(record);
        return all.length > 0 && all;
      },
      20_000,
      'the mobile-money reading',
    );
    expect(money).toEqual([expect.objectContaining({ incomingMessageId: incoming[1]!.id, verification: 'unverified', currency: 'MGA', amountMinor: 5_130_000 })]);
    expect(await client.getMobileMoney(money[0]!.id)).toMatchObject({ id: money[0]!.id, direction: 'incoming' });

    const detected = await eventually(() => receiver.requests.find((r) => r.headers['hafatra-event-type'] === 'mobile_money.detected'), 20_000, 'the mobile_money.detected webhook');
    const event = await verifyWebhook(detected.rawBody, detected.headers, secret);
    if (event.event !== 'mobile_money.detected') throw new Error(`expected mobile_money.detected, got ${event.event}`);
    expect(event.data).toMatchObject({ id: money[0]!.id, verification: 'unverified' });
    await eventually(() => receiver.requests.filter((r) => r.headers['hafatra-event-type'] === 'incoming.received').length === 3, 20_000, 'three incoming.received webhooks');
    for (const r of receiver.requests.filter((q) => q.headers['hafatra-event-type'] === 'incoming.received')) {
      const received = await verifyWebhook(r.rawBody, r.headers, secret);
      if (received.event !== 'incoming.received') throw new Error('narrowing');
      expect(incoming.map((m) => m.id)).toContain(received.data.id);
    }

    const log = await eventually(
      async () => {
        const all = [];
        for await (const d of client.iterWebhookDeliveries(endpoint.id, { limit: 1 })) all.push(d);
        return all.length === 4 && all.every((d) => d.status === 'delivered') && all;
      },
      20_000,
      'four delivered deliveries in the log',
    );
    expect(new Set(log.map((d) => d.eventType))).toEqual(new Set(['incoming.received', 'mobile_money.detected']));
    await client.deleteWebhookEndpoint(endpoint.id);
  });

  it('verifies a body signed now with the documented recipe, and refuses one signed with another secret', async () => {
    const body = JSON.stringify({ id: 'evt_1', event: 'webhook.test', createdAt: new Date().toISOString(), data: { endpointId: 'whe_1', message: 'hi' } });
    const t = Math.floor(Date.now() / 1000);
    const sign = (secret: string) => createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    const event = await verifyWebhook(body, { 'Hafatra-Signature': `t=${t},v1=${sign('whsec_a')}` }, 'whsec_a');
    expect(event).toMatchObject({ event: 'webhook.test', data: { message: 'hi' } });
    await expect(verifyWebhook(body, { 'hafatra-signature': `t=${t},v1=${sign('whsec_b')}` }, 'whsec_a')).rejects.toThrow(/does not match/);
  });
});

describe('sending and listing', () => {
  it('sends 500 recipients in one request and pages all of them back through the iterator', async () => {
    const to = recipients(500);
    const sent = await client.sendMessages({ to, body: 'Five hundred', sendAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(sent.messages).toHaveLength(500);
    expect(new Set(sent.messages.map((m) => m.status))).toEqual(new Set(['accepted']));
    const seen: string[] = [];
    for await (const message of client.iterMessages({ status: 'accepted', limit: 100 })) seen.push(message.id);
    expect(seen.sort()).toEqual(sent.messages.map((m) => m.id).sort());
    for (const m of sent.messages.slice(0, 3)) expect((await client.cancelMessage(m.id)).status).toBe('cancelled');
  });

  it('keeps its Idempotency-Key across the retry of a lost answer, so the server sends once', async () => {
    const recording = recordingFetch({ dropFirstAnswer: true });
    const flaky = new Hafatra({ baseUrl: rig.app.url, apiKey: rig.key, baseDelayMs: 10, fetch: recording.fetch });
    const result = await flaky.sendMessages({ to: '+261340000777', body: 'Once only' });
    expect(recording.attempts).toHaveLength(2);
    const keys = recording.attempts.map((a) => a.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^sdk-[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    const same = [];
    for await (const m of client.iterMessages({ to: '+261340000777' })) same.push(m.id);
    expect(same).toEqual([result.messages[0]!.id]);
    // The caller's own key is used as given.
    const own = recordingFetch();
    await new Hafatra({ baseUrl: rig.app.url, apiKey: rig.key, fetch: own.fetch }).sendMessages({ to: '+261340000778', body: 'Mine' }, { idempotencyKey: 'order-1042' });
    expect(own.attempts[0]!.headers['idempotency-key']).toBe('order-1042');
  });

  it('pages the opt-out list, and a send to an opted-out number comes back failed with opted_out', async () => {
    for (const n of ['+261340001001', '+261340001002', '+261340001003']) await client.addOptOut({ number: n, reason: 'asked' });
    const listed = [];
    for await (const o of client.iterOptOuts({ limit: 2 })) listed.push(o.number);
    expect(listed.sort()).toEqual(['+261340001001', '+261340001002', '+261340001003']);
    const sent = await client.sendMessages({ to: '+261340001002', body: 'Promo' });
    expect(sent.messages[0]).toMatchObject({ status: 'failed', failureCode: 'opted_out' });
    await client.removeOptOut('261340001003');
    expect((await client.listOptOuts()).optOuts.map((o) => o.number)).not.toContain('+261340001003');
  });

  it('sets and reads the send windows, and lists phones with their health', async () => {
    const windows = { timeZone: 'Indian/Antananarivo', ranges: [{ days: ['mon', 'tue'] as const, from: '08:00', to: '20:00' }] };
    const set = await client.setSendWindows({ sendWindows: { ...windows, ranges: windows.ranges.map((r) => ({ ...r, days: [...r.days] })) } });
    expect(set.sendWindows).toEqual(windows);
    expect((await client.getSendWindows()).sendWindows).toEqual(windows);
    await client.setSendWindows({ sendWindows: null });
    const { devices } = await client.listDevices();
    expect(devices.map((d) => d.id)).toEqual([rig.deviceId]);
    expect((await client.getDevice(rig.deviceId)).socket.connected).toBe(true);
  });
});

describe('errors and retries', () => {
  it('throws a 400 as InvalidRequestError naming the field, once, without retrying', async () => {
    const recording = recordingFetch();
    const c = new Hafatra({ baseUrl: rig.app.url, apiKey: rig.key, fetch: recording.fetch });
    const error = await c.sendMessages({ to: ['+261340000001', 'x'.repeat(40)], body: 'hi' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_request', field: 'to[1]', requestId: expect.stringMatching(/.+/) });
    expect(recording.attempts).toHaveLength(1);
    await expect(c.getMessage('msg_nope')).rejects.toBeInstanceOf(NotFoundError);
    expect(recording.attempts).toHaveLength(2);
  });

  it('throws 401 and 403 as their own types, with the spec code and the request id', async () => {
    await expect(new Hafatra({ baseUrl: rig.app.url, apiKey: 'hfk_wrong' }).listDevices()).rejects.toBeInstanceOf(AuthenticationError);
    const { key } = await rig.app.createKey(rig.orgId, ['messages:read']);
    const error = await new Hafatra({ baseUrl: rig.app.url, apiKey: key }).listDevices().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionError);
    expect(error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('devices:read') });
  });

  it('waits out a 429 of the key rate for its Retry-After, then succeeds', async () => {
    const { key } = await rig.app.createKey(rig.orgId, ['devices:read'], { ratePerSecond: 1, rateBurst: 1 });
    const recording = recordingFetch();
    const c = new Hafatra({ baseUrl: rig.app.url, apiKey: key, fetch: recording.fetch });
    await c.listDevices();
    const started = Date.now();
    await c.listDevices();
    expect(recording.attempts.length).toBeGreaterThanOrEqual(3);
    // The server said Retry-After: 1 (at least), and the client waited for it.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('retries a 503 after its Retry-After under the same Idempotency-Key, and never a 500 without one', async () => {
    const proxy = await startFlakyProxy(rig.app.url);
    try {
      const c = new Hafatra({ baseUrl: proxy.url, apiKey: rig.key });
      const started = Date.now();
      const sent = await c.sendMessages({ to: '+261340000901', body: 'Through a busy proxy' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      const attempts = proxy.seen.filter((r) => r.path === '/v1/messages');
      expect(attempts).toHaveLength(2);
      expect(attempts[1]!.key).toBe(attempts[0]!.key);
      expect((await client.listMessages({ to: '+261340000901' })).messages.map((m) => m.id)).toEqual([sent.messages[0]!.id]);

      const error = await c.getMessage('msg_http500').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerError);
      expect(error).toMatchObject({ status: 500, code: 'internal_error', retryAfterSeconds: null });
      expect(proxy.seen.filter((r) => r.path === '/v1/messages/msg_http500')).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('throws a 429 at once when its Retry-After is beyond the bound (the daily limit), carrying the wait', async () => {
    const { org, key } = await rig.app.createOrg({ dailyLimit: 1 });
    const { pairTestPhone } = await import('../support/phones.js');
    await pairTestPhone(rig.app, org.id);
    const recording = recordingFetch();
    // Waits of up to a second are taken: the daily limit's (until the day ends) is longer but a second before midnight.
    const c = new Hafatra({ baseUrl: rig.app.url, apiKey: key, fetch: recording.fetch, maxDelayMs: 1_000 });
    await c.sendMessages({ to: '+261340000100', body: 'one' });
    const before = recording.attempts.length;
    const error = await c.sendMessages({ to: '+261340000101', body: 'two' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited' });
    expect((error as RateLimitedError).retryAfterSeconds).toBeGreaterThan(1);
    expect(recording.attempts.length - before).toBe(1);
  });

  it('retries a connection failure a bounded number of times, then throws HafatraConnectionError', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const recording = recordingFetch();
    const c = new Hafatra({ baseUrl: `http://127.0.0.1:${port}`, apiKey: rig.key, fetch: recording.fetch, maxRetries: 2, baseDelayMs: 5 });
    await expect(c.sendMessages({ to: '+261340000001', body: 'hi' })).rejects.toBeInstanceOf(HafatraConnectionError);
    expect(recording.attempts).toHaveLength(3);
    expect(new Set(recording.attempts.map((a) => a.headers['idempotency-key'])).size).toBe(1);
    // A POST without an Idempotency-Key is never sent twice: it may have been done.
    const once = recordingFetch();
    await expect(new Hafatra({ baseUrl: `http://127.0.0.1:${port}`, apiKey: rig.key, fetch: once.fetch }).cancelMessage('msg_1')).rejects.toBeInstanceOf(HafatraConnectionError);
    expect(once.attempts).toHaveLength(1);
  });
});
