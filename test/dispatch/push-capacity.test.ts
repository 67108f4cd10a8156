import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, pairTestPhone, sendMessages, startPhoneTestApp, type PhoneTestApp } from '../support/phones.js';
import { upgradeRefusal } from '../support/raw-socket.js';
import type { Job } from '../../src/phone/protocol.js';

let app: PhoneTestApp;
beforeAll(async () => {
  app = await startPhoneTestApp();
});
afterAll(() => app.close());

it('pushes no more unreported jobs than the phone asked for with maxJobs, and refills as it reports', async () => {
  const { org, key } = await app.createOrg({ dailyLimit: 10_000 });
  const jobs: Job[] = [];
  let settled = 0;
  let mostHeld = 0;
  const phone = await pairTestPhone(app, org.id, {
    pacingPerMinute: 100_000,
    client: {
      maxJobs: 3,
      onJobs: (j) => {
        jobs.push(...j);
        mostHeld = Math.max(mostHeld, jobs.length - settled);
      },
    },
  });
  await phone.client.connect();
  try {
    const ids = await sendMessages(app, key, 10);
    await eventually(() => jobs.length === 3, 5000, 'three pushed jobs');
    const settle = async (job: Job) => {
      await phone.client.reportStatus({ messageId: job.messageId, status: 'sending' });
      await phone.client.reportStatus({ messageId: job.messageId, status: 'sent' });
      settled += 1;
    };
    // Refilled once at most half is left: one settled leaves two, still held.
    await settle(jobs[0]!);
    await settle(jobs[1]!);
    await eventually(() => jobs.length === 5, 5000, 'the refill to three held');
    const { rows } = await app.ctx.db.query(`SELECT count(*)::int AS n FROM messages WHERE id = ANY($1) AND status = 'queued'`, [ids]);
    expect(rows[0].n).toBe(5);
    expect(mostHeld).toBe(3);
  } finally {
    await phone.client.close();
  }
});

it('refuses a socket upgrade whose maxJobs is not an integer from 1 to 100, with the error shape', async () => {
  const { org } = await app.createOrg();
  const { token } = await pairTestPhone(app, org.id);
  for (const value of ['0', '101', 'abc', '1.5', '-1']) {
    const res = await upgradeRefusal(app.url, token, `?maxJobs=${value}`);
    expect(res.status, value).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'invalid_request', message: expect.stringContaining('maxJobs'), requestId: expect.any(String) } });
  }
});

it('spreads a burst over the phones of the organization rather than filling the first ones', async () => {
  const { org, key } = await app.createOrg({ dailyLimit: 10_000 });
  const held = new Map<string, number>();
  const phones = [];
  for (let i = 0; i < 5; i++) {
    const phone = await pairTestPhone(app, org.id, {
      pacingPerMinute: 100_000,
      client: { onJobs: (j) => held.set(phone.deviceId, (held.get(phone.deviceId) ?? 0) + j.length) },
    });
    await phone.client.connect();
    phones.push(phone);
  }
  try {
    await sendMessages(app, key, 200);
    await eventually(() => [...held.values()].reduce((a, b) => a + b, 0) === 200, 5000, 'every job pushed');
    // Each phone claims its share (40); claiming their whole room of 100, the first two took everything.
    expect(held.size).toBe(5);
    for (const n of held.values()) expect(n).toBeLessThanOrEqual(60);
  } finally {
    for (const p of phones) await p.client.close();
  }
});
