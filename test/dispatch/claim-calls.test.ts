import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, pairTestPhone, sendMessages, startPhoneTestApp, type PhoneTestApp, type TestPhone } from '../support/phones.js';
import { loadLuaScripts } from '../../src/redis/scripts/lua-scripts.js';
import type { Job } from '../../src/phone/protocol.js';
import { syncDeviceState } from '../../src/dispatch-queue/device-state.js';
import { monitorRedis } from '../support/redis-monitor.js';

// Claim calls are the dispatch's most frequent Redis call: a phone asks only when work may wait
// for it (src/dispatch/pusher.ts). Counted with MONITOR on the real Redis, by the claim script's sha.
let app: PhoneTestApp;
let watcher: { close(): void };
const claimSha = createHash('sha1').update(loadLuaScripts().get('claimJobs')!.lua).digest('hex');
/** The claim script's call: EVALSHA by its sha, or EVAL of its text, which ioredis sends the first time on a connection (claimJobs is the one script of seven keys). */
const isClaim = (a: string[]) => (a[0]?.toLowerCase() === 'evalsha' && a[1] === claimSha) || (a[0]?.toLowerCase() === 'eval' && a[2] === '7');
const calls: string[][] = [];
let marks = 0;

/** Claim calls naming this organization's queue (the claim's second key), up to now: Redis runs commands in order, so every call made before the mark is seen before it. */
async function claimsOf(orgQueue: string): Promise<number> {
  const mark = `claim-calls-mark-${marks++}`;
  await app.ctx.redis.echo(mark);
  await eventually(() => calls.some((a) => a[0]?.toLowerCase() === 'echo' && a[1] === mark), 5000, 'the mark in MONITOR');
  return calls.filter((a) => isClaim(a) && a[4] === orgQueue).length;
}

beforeAll(async () => {
  app = await startPhoneTestApp();
  watcher = await monitorRedis(app.ctx.config.redisUrl, (args) => calls.push(args));
});
afterAll(async () => {
  watcher.close();
  await app.close();
});

async function fleet(orgId: string, size: number, onJobs: (deviceId: string, jobs: Job[]) => void): Promise<TestPhone[]> {
  const phones: TestPhone[] = [];
  for (let i = 0; i < size; i++) {
    const phone: TestPhone = await pairTestPhone(app, orgId, { pacingPerMinute: 100_000, client: { onJobs: (j) => onJobs(phone.deviceId, j) } });
    phones.push(phone);
  }
  await Promise.all(phones.map((p) => p.client.connect()));
  return phones;
}

it('a send of 20 to an organization of 8 phones asks 2 of them, 10 messages each, and no other phone makes a claim call', async () => {
  const { org, key } = await app.createOrg({ dailyLimit: 10_000 });
  const held = new Map<string, number>();
  const phones = await fleet(org.id, 8, (deviceId, jobs) => held.set(deviceId, (held.get(deviceId) ?? 0) + jobs.length));
  const orgQueue = app.ctx.keys.org(org.id).orgQueue();
  try {
    const before = await claimsOf(orgQueue);
    await sendMessages(app, key, 20);
    await eventually(() => [...held.values()].reduce((a, b) => a + b, 0) === 20, 5000, 'all 20 jobs pushed');
    expect([...held.values()].sort()).toEqual([10, 10]);
    expect((await claimsOf(orgQueue)) - before).toBe(2);
  } finally {
    await Promise.all(phones.map((p) => p.client.close()));
  }
});

it('asks the phones not asked yet when those asked first come back short, so every send goes out', async () => {
  const { org, key } = await app.createOrg({ dailyLimit: 10_000 });
  const held = new Map<string, number>();
  const phones = await fleet(org.id, 4, (deviceId, jobs) => held.set(deviceId, (held.get(deviceId) ?? 0) + jobs.length));
  // Three of the four take nothing. A send of 10 asks one phone first, and each signal starts
  // with the next phone: of four sends, three start with a phone that comes back empty.
  for (const p of phones.slice(1)) {
    await app.ctx.db.query('UPDATE devices SET outbound_enabled = false WHERE id = $1', [p.deviceId]);
    await syncDeviceState(app.ctx, p.deviceId);
  }
  try {
    for (let send = 1; send <= 4; send++) {
      await sendMessages(app, key, 10);
      await eventually(() => held.get(phones[0]!.deviceId) === send * 10, 5000, `send ${send} pushed`);
    }
    expect([...held.keys()]).toEqual([phones[0]!.deviceId]);
  } finally {
    await Promise.all(phones.map((p) => p.client.close()));
  }
});

it('a phone reporting its job sent while nothing waits makes no claim call, and still gets what is sent next', async () => {
  const { org, key } = await app.createOrg({ dailyLimit: 10_000 });
  const jobs: Job[] = [];
  const [phone] = await fleet(org.id, 1, (_, j) => jobs.push(...j));
  const orgQueue = app.ctx.keys.org(org.id).orgQueue();
  try {
    await sendMessages(app, key, 1);
    await eventually(() => jobs.length === 1, 5000, 'the first job');
    const before = await claimsOf(orgQueue);
    await phone!.client.reportStatus({ messageId: jobs[0]!.messageId, status: 'sending' });
    await phone!.client.reportStatus({ messageId: jobs[0]!.messageId, status: 'sent' });
    await phone!.client.reportStatus({ messageId: jobs[0]!.messageId, status: 'delivered' });
    expect((await claimsOf(orgQueue)) - before).toBe(0);
    await sendMessages(app, key, 1);
    await eventually(() => jobs.length === 2, 5000, 'the job sent next');
  } finally {
    await phone!.client.close();
  }
});
