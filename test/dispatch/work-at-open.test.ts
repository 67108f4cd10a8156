import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, pairTestPhone, sendMessages, startPhoneTestApp, type PhoneTestApp } from '../support/phones.js';
import type { Job } from '../../src/phone/protocol.js';

// A socket's open claims for the phone only when work waits for it (src/dispatch-queue/work-waiting.ts):
// whatever waits must still reach it at open, and what comes later through the work signal.
let app: PhoneTestApp;
beforeAll(async () => {
  app = await startPhoneTestApp();
});
afterAll(() => app.close());

it("hands a phone at its socket's open the messages queued for its organization before it connected", async () => {
  const { org, key } = await app.createOrg();
  const jobs: Job[] = [];
  const phone = await pairTestPhone(app, org.id, { client: { onJobs: (j) => jobs.push(...j) } });
  const ids = await sendMessages(app, key, 3);
  await phone.client.connect();
  try {
    await eventually(() => jobs.length === 3, 5000, 'three jobs at open');
    expect(jobs.map((j) => j.messageId).sort()).toEqual([...ids].sort());
  } finally {
    await phone.client.close();
  }
});

it("hands a phone at open the messages pinned to it while its organization's queue is empty, and none of them to another", async () => {
  const { org, key } = await app.createOrg();
  const pinnedJobs: Job[] = [];
  const otherJobs: Job[] = [];
  const pinned = await pairTestPhone(app, org.id, { client: { onJobs: (j) => pinnedJobs.push(...j) } });
  const other = await pairTestPhone(app, org.id, { client: { onJobs: (j) => otherJobs.push(...j) } });
  const ids = await sendMessages(app, key, 2, { deviceId: pinned.deviceId });
  await other.client.connect();
  await pinned.client.connect();
  try {
    await eventually(() => pinnedJobs.length === 2, 5000, 'the pinned jobs at open');
    expect(pinnedJobs.map((j) => j.messageId).sort()).toEqual([...ids].sort());
    expect(otherJobs).toEqual([]);
  } finally {
    await Promise.all([pinned.client.close(), other.client.close()]);
  }
});

it('hands a phone that opened with nothing waiting the messages sent afterwards', async () => {
  const { org, key } = await app.createOrg();
  const jobs: Job[] = [];
  const phone = await pairTestPhone(app, org.id, { client: { onJobs: (j) => jobs.push(...j) } });
  await phone.client.connect();
  try {
    const ids = await sendMessages(app, key, 2);
    await eventually(() => jobs.length === 2, 5000, 'the later jobs');
    expect(jobs.map((j) => j.messageId).sort()).toEqual([...ids].sort());
  } finally {
    await phone.client.close();
  }
});
