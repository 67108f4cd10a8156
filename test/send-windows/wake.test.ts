import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, pairTestPhone, startPhoneTestApp, type PhoneTestApp } from '../support/phones.js';
import type { Job } from '../../src/phone/protocol.js';

// A clock that runs, set so that the window opens about 1.5 s after the test starts.
const opensAt = Date.parse('2025-11-27T08:00:00+03:00');
let offset = 0;
const clock = { now: () => Date.now() + offset };
let app: PhoneTestApp;

beforeAll(async () => {
  app = await startPhoneTestApp({}, clock);
});
afterAll(() => app.close());

it('wakes a connected phone when the window opens: it is handed the waiting message then, not at the next 30 s pump', async () => {
  const { org, key } = await app.createOrg();
  const window = { timeZone: 'Indian/Antananarivo', ranges: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '20:00' }] };
  expect((await app.request('PUT', '/v1/send-windows', { key, body: { sendWindows: window } })).status).toBe(200);
  const handed: { job: Job; at: number }[] = [];
  const phone = await pairTestPhone(app, org.id, { client: { onJobs: (jobs) => handed.push(...jobs.map((job) => ({ job, at: clock.now() }))) } });
  await phone.client.connect();
  try {
    offset = opensAt - 1500 - Date.now();
    const res = await app.request('POST', '/v1/messages', { key, body: { to: '+261341234567', body: 'Tonga soa' } });
    expect(res.status).toBe(202);
    // The send's work signal reached the phone while the window was closed: nothing handed yet.
    await eventually(async () => (await app.request('GET', `/v1/messages/${res.body.messages[0].id}`, { key })).body.status === 'queued', 1000);
    expect(handed).toEqual([]);
    await eventually(() => handed.length === 1, 5000, 'the job once the window opened');
    expect(handed[0]!.job.messageId).toBe(res.body.messages[0].id);
    expect(handed[0]!.at).toBeGreaterThanOrEqual(opensAt);
    expect(handed[0]!.at - opensAt).toBeLessThan(1000);
  } finally {
    await phone.client.close();
  }
});
