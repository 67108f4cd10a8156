import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/harness.js';
import { schemaErrors } from '../../devices/support.js';
import { eventsOf, sms, subscribeWebhook, unlockedPhone } from '../../incoming/support.js';
import { recordIncoming } from '../../../src/incoming/record-incoming.js';
import { startMobileMoneyWorker, type MobileMoneyWorker } from '../../../src/mobile-money/parse-worker.js';
import { readIncoming } from '../../../src/mobile-money/read-incoming.js';
import { MobileMoneyEventSchema } from '../../../src/mobile-money/schemas.js';
import { PARSER_VERSION } from '../../../src/mobile-money/reading/index.js';
import type { DevicePrincipal } from '../../../src/auth/principal.js';
import { newId } from '../../../src/ids/ids.js';
import { Redis } from 'ioredis';
import { MVOLA_PROMO, fakeAiReader, mvolaGarbled, mvolaReceived, randomReference, readingOf } from './support.js';

let app: TestApp;
let worker: MobileMoneyWorker;
const reader = fakeAiReader();

beforeAll(async () => {
  app = await startTestApp();
  worker = startMobileMoneyWorker(app.ctx, { reader, recoveryIntervalMs: 600_000, recoveryGraceMs: 0, aiStuckMs: 600_000 });
});
afterAll(async () => {
  await worker.close();
  await app.close();
});

async function orgWithPhone(settings: { aiConsent?: boolean } = {}) {
  const { org, key } = await app.createOrg(settings);
  return { orgId: org.id, key, phone: await unlockedPhone(app, org.id) };
}

async function receive(phone: DevicePrincipal, from: string, body: string): Promise<string> {
  return (await recordIncoming(app.ctx, phone, sms({ from, body }))).incomingId!;
}

/** Stored as if the process died between the commit and the enqueue: no parse job exists. */
async function storeWithoutJob(phone: DevicePrincipal, from: string, body: string): Promise<string> {
  const { rows } = await app.ctx.db.query(
    `INSERT INTO incoming_messages (id, org_id, device_id, client_id, from_number, body, received_at, retention_expires_at)
     VALUES ($1, $2, $3, $1, $4, $5, now(), now() + interval '30 days') RETURNING id`,
    [newId('incoming'), phone.orgId, phone.deviceId, from, body],
  );
  return rows[0].id as string;
}

describe('mobile-money records', () => {
  it('reads an MVola notification into an unverified record linked from the SMS', async () => {
    const { key, phone } = await orgWithPhone();
    const reference = randomReference();
    const incomingId = await receive(phone, 'MVola', mvolaReceived(reference));
    const link = await readingOf(app, key, incomingId);
    expect(link).toEqual({ id: expect.stringMatching(/^mm_/), provider: 'provider_a', classification: 'matched' });

    const res = await app.request('GET', `/v1/mobile-money/${link!.id}`, { key });
    expect(res.status).toBe(200);
    expect(schemaErrors(MobileMoneyEventSchema, res.body)).toEqual([]);
    expect(res.body).toMatchObject({
      id: link!.id,
      incomingMessageId: incomingId,
      provider: 'provider_a',
      classification: 'matched',
      parsingStatus: 'parsed',
      verification: 'unverified',
      direction: 'incoming',
      amountMinor: 85_000_000,
      currency: 'MGA',
      reference,
      counterpartyName: 'Going Beyond',
      counterpartyPhoneMasked: '+26134****747',
      providerTimestamp: '02/01/25 a 09:42',
      balanceMinor: 141_415_500,
      feesMinor: null,
      parserVersion: PARSER_VERSION,
      ai: { status: 'not_needed', provider: null, model: null, confidence: null },
      review: { status: 'none', note: null, reviewedAt: null },
    });
    expect(res.body.parserConfidence).toBeGreaterThan(0.5);
  });

  it('makes no record for an SMS that is not about mobile money', async () => {
    const { key, phone } = await orgWithPhone();
    const incomingId = await receive(phone, '+261340000000', 'Salama, rahampitso ve isika?');
    expect(await readingOf(app, key, incomingId)).toBeNull();
    const list = await app.request('GET', '/v1/mobile-money', { key });
    expect(list.body.events).toEqual([]);
  });

  it('never matches a notification from a sender that is not the provider (spoofed)', async () => {
    const { key, phone } = await orgWithPhone();
    const incomingId = await receive(phone, '+261341234567', mvolaReceived());
    expect(await readingOf(app, key, incomingId)).toMatchObject({ provider: 'provider_a', classification: 'ambiguous' });
  });

  it('reads a replayed reference as ambiguous, leaving the first one matched', async () => {
    const { key, phone } = await orgWithPhone();
    const reference = randomReference();
    const first = await receive(phone, 'MVola', mvolaReceived(reference));
    expect((await readingOf(app, key, first))?.classification).toBe('matched');
    const replay = await receive(phone, 'MVola', mvolaReceived(reference, 'again'));
    expect((await readingOf(app, key, replay))?.classification).toBe('ambiguous');
    expect((await readingOf(app, key, first))?.classification).toBe('matched');
  });

  it('keeps replay detection per organization', async () => {
    const reference = randomReference();
    const a = await orgWithPhone();
    const b = await orgWithPhone();
    const inA = await receive(a.phone, 'MVola', mvolaReceived(reference));
    expect((await readingOf(app, a.key, inA))?.classification).toBe('matched');
    const inB = await receive(b.phone, 'MVola', mvolaReceived(reference));
    expect((await readingOf(app, b.key, inB))?.classification).toBe('matched');
  });

  it('reads a joined concatenated notification as one record', async () => {
    const { key, phone } = await orgWithPhone();
    const body = mvolaReceived();
    const cut = body.indexOf('Solde');
    await recordIncoming(app.ctx, phone, sms({ from: 'MVola', body: body.slice(cut), part: { ref: 9, index: 2, count: 2 } }));
    const joined = await recordIncoming(app.ctx, phone, sms({ from: 'MVola', body: body.slice(0, cut), part: { ref: 9, index: 1, count: 2 } }));
    expect((await readingOf(app, key, joined.incomingId!))?.classification).toBe('matched');
  });
});

describe('GET /v1/mobile-money', () => {
  it('filters by classification, newest first, in pages', async () => {
    const { key, phone } = await orgWithPhone();
    // One at a time: records are listed in the order they were made, and the worker reads jobs concurrently.
    const readOne = async (from: string, body: string) => {
      const id = await receive(phone, from, body);
      await readingOf(app, key, id);
      return id;
    };
    const matched = [await readOne('MVola', mvolaReceived()), await readOne('MVola', mvolaReceived())];
    const ambiguous = await readOne('+261341234567', mvolaReceived());
    const unknown = await readOne('MVola', MVOLA_PROMO);

    const all = await app.request('GET', '/v1/mobile-money', { key });
    expect(all.body.events.map((e: { incomingMessageId: string }) => e.incomingMessageId)).toEqual([unknown, ambiguous, matched[1], matched[0]]);
    const only = async (c: string) => (await app.request('GET', `/v1/mobile-money?classification=${c}`, { key })).body.events.map((e: { incomingMessageId: string }) => e.incomingMessageId);
    expect(await only('matched')).toEqual([matched[1], matched[0]]);
    expect(await only('ambiguous')).toEqual([ambiguous]);
    expect(await only('unknown')).toEqual([unknown]);

    const page1 = await app.request('GET', '/v1/mobile-money?limit=3', { key });
    expect(page1.body.events).toHaveLength(3);
    const page2 = await app.request('GET', `/v1/mobile-money?limit=3&before=${page1.body.nextCursor}`, { key });
    expect(page2.body.events.map((e: { incomingMessageId: string }) => e.incomingMessageId)).toEqual([matched[0]]);
    expect(page2.body.nextCursor).toBeNull();
  });

  it('refuses an unknown classification, hides other organizations and needs its scope', async () => {
    const { key } = await orgWithPhone();
    const bad = await app.request('GET', '/v1/mobile-money?classification=verified', { key });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('classification');

    const other = await orgWithPhone();
    const id = await receive(other.phone, 'MVola', mvolaReceived());
    const link = await readingOf(app, other.key, id);
    expect((await app.request('GET', `/v1/mobile-money/${link!.id}`, { key })).status).toBe(404);
    expect((await app.request('GET', '/v1/mobile-money/mm_missing', { key })).status).toBe(404);

    const { org } = await app.createOrg();
    const { key: narrow } = await app.createKey(org.id, ['incoming:read']);
    expect((await app.request('GET', '/v1/mobile-money', { key: narrow })).status).toBe(403);
  });
});

describe('ai status', () => {
  const aiOf = async (key: string, incomingId: string) => {
    const link = await readingOf(app, key, incomingId);
    return (await app.request('GET', `/v1/mobile-money/${link!.id}`, { key })).body;
  };

  it('is not_consented when the templates could not read it and the organization did not opt in', async () => {
    const { key, phone } = await orgWithPhone({ aiConsent: false });
    const calls = reader.calls;
    const record = await aiOf(key, await receive(phone, 'MVola', mvolaGarbled()));
    expect(record.classification).toBe('ambiguous');
    expect(record.ai).toEqual({ status: 'not_consented', provider: null, model: null, confidence: null });
    expect(reader.calls).toBe(calls);
  });

  it('is completed with the reader named, filling only fields the templates left empty', async () => {
    const { key, phone } = await orgWithPhone({ aiConsent: true });
    const record = await aiOf(key, await receive(phone, 'MVola', mvolaGarbled()));
    expect(record.ai).toEqual({ status: 'completed', provider: 'test-ai', model: 'fake-1', confidence: 0.7 });
    expect(record.amountMinor).toBe(5_010_000);
    expect(record.counterpartyName).toBe('Narindra Franco Danhy');
    expect(record.classification).toBe('ambiguous');
  });

  it('is failed when the reader fails', async () => {
    const { key, phone } = await orgWithPhone({ aiConsent: true });
    const record = await aiOf(key, await receive(phone, 'MVola', mvolaGarbled('AI-FAIL')));
    expect(record.ai).toEqual({ status: 'failed', provider: 'test-ai', model: 'fake-1', confidence: null });
    expect(record.amountMinor).toBeNull();
  });

  it('is ai_unavailable when the organization opted in but no reader is configured', async () => {
    const { key, phone } = await orgWithPhone({ aiConsent: true });
    const id = await storeWithoutJob(phone, 'MVola', mvolaGarbled());
    expect(await readIncoming(app.ctx, [id], null)).toEqual({ read: 1, recorded: 1 });
    const record = await aiOf(key, id);
    expect(record.ai).toEqual({ status: 'ai_unavailable', provider: null, model: null, confidence: null });
  });

  it('is not_needed for a provider notice the templates recognised', async () => {
    const { key, phone } = await orgWithPhone({ aiConsent: true });
    const record = await aiOf(key, await receive(phone, 'MVola', MVOLA_PROMO));
    expect(record).toMatchObject({ classification: 'unknown', ai: { status: 'not_needed' } });
  });
});

describe('events and idempotency', () => {
  it('records mobile_money.detected once, with the full unverified record, for a subscribed organization', async () => {
    const { orgId, key, phone } = await orgWithPhone({ aiConsent: true });
    await subscribeWebhook(app, orgId, ['mobile_money.detected', 'incoming.received']);
    const plain = await receive(phone, 'MVola', mvolaReceived());
    const viaAi = await receive(phone, 'MVola', mvolaGarbled());
    const plainLink = await readingOf(app, key, plain);
    const aiLink = await readingOf(app, key, viaAi);

    await readIncoming(app.ctx, [plain, viaAi], reader);
    await app.ctx.parseQueue.enqueue([plain, viaAi]);

    const events = await eventsOf(app, orgId, 'mobile_money.detected');
    expect(events.map((e) => e.payload.data.id).sort()).toEqual([plainLink!.id, aiLink!.id].sort());
    const byId = new Map(events.map((e) => [e.payload.data.id, e.payload]));
    const stored = await app.request('GET', `/v1/mobile-money/${plainLink!.id}`, { key });
    expect(byId.get(plainLink!.id)).toMatchObject({ event: 'mobile_money.detected', data: stored.body });
    expect(byId.get(aiLink!.id).data).toMatchObject({ verification: 'unverified', ai: { status: 'completed' }, amountMinor: 5_010_000 });
    expect(await eventsOf(app, orgId, 'incoming.received')).toHaveLength(2);
    const count = await app.ctx.db.query('SELECT count(*) AS n FROM mobile_money_events WHERE org_id = $1', [orgId]);
    expect(Number(count.rows[0].n)).toBe(2);
  });

  it('reads an SMS whose parse job was lost, in the recovery pass', async () => {
    const { key, phone } = await orgWithPhone();
    const id = await storeWithoutJob(phone, 'MVola', mvolaReceived());
    await new Promise((r) => setTimeout(r, 300));
    expect(await readingOf(app, key, id, 0).catch(() => 'not read')).toBe('not read');
    await worker.recoverNow();
    expect((await readingOf(app, key, id))?.classification).toBe('matched');
  });

  it('stores an SMS at once while Redis is unreachable, and the recovery pass reads it', async () => {
    const { key, phone } = await orgWithPhone();
    const deadRedis = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false });
    const started = Date.now();
    try {
      const { incomingId } = await recordIncoming({ ...app.ctx, redis: deadRedis }, phone, sms({ from: 'MVola', body: mvolaReceived() }));
      expect(Date.now() - started).toBeLessThan(2000);
      await worker.recoverNow();
      expect((await readingOf(app, key, incomingId!))?.classification).toBe('matched');
    } finally {
      deadRedis.disconnect();
    }
  });

  it('asks the AI reader again for a record a crash left pending, and announces it then', async () => {
    const { orgId, key, phone } = await orgWithPhone({ aiConsent: true });
    await subscribeWebhook(app, orgId, ['mobile_money.detected']);
    const id = await storeWithoutJob(phone, 'MVola', mvolaGarbled());
    await readIncoming(app.ctx, [id], reader);
    await app.ctx.db.query(`UPDATE mobile_money_events SET ai_status = 'pending', ai_confidence = NULL, updated_at = now() - interval '1 hour' WHERE incoming_message_id = $1`, [id]);
    await app.ctx.db.query('DELETE FROM events WHERE org_id = $1', [orgId]);
    const rescuer = startMobileMoneyWorker(app.ctx, { reader, recoveryIntervalMs: 600_000, aiStuckMs: 60_000 });
    try {
      await rescuer.recoverNow();
    } finally {
      await rescuer.close();
    }
    const link = await readingOf(app, key, id);
    const record = (await app.request('GET', `/v1/mobile-money/${link!.id}`, { key })).body;
    expect(record.ai).toEqual({ status: 'completed', provider: 'test-ai', model: 'fake-1', confidence: 0.7 });
    expect((await eventsOf(app, orgId, 'mobile_money.detected')).map((e) => e.payload.data.id)).toEqual([link!.id]);
  });

  it('skips SMS whose body retention already removed', async () => {
    const { phone } = await orgWithPhone();
    const id = await receive(phone, 'MVola', mvolaReceived());
    await app.ctx.db.query('UPDATE incoming_messages SET money_checked_at = NULL WHERE id = $1', [id]);
    await app.ctx.db.query(`DELETE FROM mobile_money_events WHERE incoming_message_id = $1`, [id]);
    await app.ctx.db.query(`UPDATE incoming_messages SET body = NULL, body_purged_at = now() WHERE id = $1`, [id]);
    expect(await readIncoming(app.ctx, [id], null)).toEqual({ read: 0, recorded: 0 });
  });
});
