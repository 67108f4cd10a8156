import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';

// Android's SmsUsageMonitor: 30 parts per 60 s per app, whatever the SIM. The server's default
// pacing is 25 in any 60 s for the phone as a whole.
const ANDROID_LIMIT = 30;
const clock = { t: Date.now(), now: () => clock.t };
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ pacingPerMinute: 25 }, undefined, clock);
});
afterAll(() => app.close());

it('never hands a dual-SIM phone more than its pacing in any 60 s, over ten busy minutes, both SIMs together', async () => {
  const { org, key } = await app.createOrg({ dailyLimit: 100_000 });
  const deviceId = await insertTestDevice(app.ctx, org.id, { sims: [1, 2] });
  // 240 messages of 1 to 3 parts, alternating SIMs: far more than ten minutes of pacing.
  for (let i = 0; i < 24; i++) {
    const parts = (i % 3) + 1;
    const res = await app.request('POST', '/v1/messages', {
      key,
      body: { to: Array.from({ length: 10 }, (_, j) => `+2613411${String(i * 10 + j).padStart(5, '0')}`), body: 'x'.repeat(153 * parts), deviceId, simSubscriptionId: (i % 2) + 1 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
  }

  const handed: { at: number; parts: number; sim: number | null }[] = [];
  const start = clock.t;
  // A phone claiming whenever it is told to come back, or every 7 s when it was not.
  while (clock.t - start < 10 * 60_000) {
    const r = await app.ctx.dispatch.claim({ orgId: org.id, deviceId }, 100);
    for (const j of r.jobs) handed.push({ at: clock.t, parts: j.segments, sim: j.simSubscriptionId });
    clock.t += r.retryAfterMs > 0 ? Math.min(r.retryAfterMs, 7_000) : 7_000;
  }

  let worst = 0;
  for (const { at } of handed) {
    const inWindow = handed.filter((h) => h.at >= at && h.at < at + 60_000).reduce((n, h) => n + h.parts, 0);
    worst = Math.max(worst, inWindow);
  }
  expect(worst).toBeLessThanOrEqual(25);
  expect(worst).toBeLessThanOrEqual(ANDROID_LIMIT);
  // Paced, not starved: both SIMs used, and about 25 parts a minute over the ten minutes.
  expect(new Set(handed.map((h) => h.sim))).toEqual(new Set([1, 2]));
  expect(handed.reduce((n, h) => n + h.parts, 0)).toBeGreaterThanOrEqual(225);
});
