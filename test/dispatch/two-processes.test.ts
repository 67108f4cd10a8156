import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { startApiProcess, type ApiProcess } from '../support/api-process.js';
import { pairTestPhone, sendMessages, eventually, type TestPhone } from '../support/phones.js';
import type { Job } from '../../src/phone/protocol.js';

/**
 * A second API process (a real `hafatra api` child) beside the in-process one, sharing Postgres
 * and Redis: a send taken by either reaches phones held by both, each message once.
 */
let a: TestApp;
let b: ApiProcess;
let bUrl: string;

beforeAll(async () => {
  a = await startTestApp();
  b = await startApiProcess(a);
  bUrl = b.url;
}, 30_000);

afterAll(async () => {
  b?.stop();
  await a?.close();
});

const reporting: Promise<unknown>[] = [];

function collect(phone: TestPhone, into: Map<string, string>) {
  const client = phone.client;
  return (jobs: Job[]) => {
    for (const job of jobs) {
      expect(into.has(job.messageId), `${job.messageId} reached two phones`).toBe(false);
      into.set(job.messageId, phone.deviceId);
      reporting.push(
        (async () => {
          await client.reportStatus({ messageId: job.messageId, status: 'sending' });
          await client.reportStatus({ messageId: job.messageId, status: 'sent' });
        })(),
      );
    }
  };
}

it('delivers each message once across phones on two API processes, pinned ones to their phone', async () => {
  const { org, key } = await a.createOrg({ dailyLimit: 100_000 });
  const seen = new Map<string, string>();
  const phones: TestPhone[] = [];
  for (let i = 0; i < 4; i++) {
    let handle: (jobs: Job[]) => void = () => undefined;
    const phone = await pairTestPhone(a, org.id, {
      pacingPerMinute: 100_000,
      client: { ...(i % 2 === 1 ? { baseUrl: bUrl } : {}), onJobs: (jobs) => handle(jobs) },
    });
    handle = collect(phone, seen);
    phones.push(phone);
    await phone.client.connect();
  }

  // The API process that takes the send has no socket of the pinned phone: the push crosses processes.
  const pinnedPhone = phones[1]!;
  const t0 = Date.now();
  const [pinned] = await sendMessages(a, key, 1, { deviceId: pinnedPhone.deviceId });
  await eventually(() => seen.get(pinned!) === pinnedPhone.deviceId, 5000, 'the pinned job on the other process');
  const pinnedLatency = Date.now() - t0;
  expect(pinnedLatency).toBeLessThan(2000);

  const ids = await sendMessages(a, key, 300);
  await eventually(() => ids.every((id) => seen.has(id)), 15_000, 'every message handed out');
  const perProcess = new Set(ids.map((id) => phones.findIndex((p) => p.deviceId === seen.get(id)) % 2));
  expect(perProcess.size).toBe(2); // phones of both processes got work
  await eventually(
    async () => {
      const { rows } = await a.ctx.db.query(`SELECT count(*)::int AS n FROM messages WHERE org_id = $1 AND status = 'sent'`, [org.id]);
      return rows[0].n === 301;
    },
    15_000,
    'all sent',
  );
  await Promise.all(reporting); // every report acknowledged before the phones hang up
  for (const p of phones) await p.client.close();
}, 60_000);
