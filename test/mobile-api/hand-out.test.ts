import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createRedis, type Redis } from '../../src/redis/connection.js';
import { subscribeDeviceSignals } from '../../src/redis/device-signals.js';
import { withdrawStuckClaims } from '../../src/dispatch/withdraw-jobs.js';
import { sendMessages } from '../support/phones.js';
import { startedPhone } from './support.js';

// A clock the test moves, to cross pacing windows without waiting for them.
const clock = { t: Date.now(), now: () => clock.t };
let app: TestApp;
let signals: Redis;
const delayedWakes: { deviceId: string | null; delayMs: number }[] = [];

beforeAll(async () => {
  app = await startTestApp({ pacingPerMinute: 25, claimTimeoutSeconds: 1 }, undefined, clock);
  signals = createRedis(app.ctx.config.redisUrl, { name: 'test-signals', subscriber: true });
  await subscribeDeviceSignals(signals, app.ctx.keys, app.ctx.log, (s) => {
    if (s.type === 'app-event' && s.delayMs && s.events.some((e) => e.event === 'MessageEnqueued')) delayedWakes.push({ deviceId: s.deviceId, delayMs: s.delayMs });
  });
});
afterAll(async () => {
  signals.disconnect();
  await app.close();
});

const countByStatus = async (orgId: string) => {
  const { rows } = await app.ctx.db.query(`SELECT status, count(*)::int AS n FROM messages WHERE org_id = $1 GROUP BY status`, [orgId]);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
};

describe('hand-out to an app phone', () => {
  it('paces a 100-message burst at 25 parts a minute, and wakes the phone when its window reopens', async () => {
    const { org, key } = await app.createOrg({ dailyLimit: 100_000 });
    const phone = await startedPhone(app, org.id, { autopilot: true });
    const handed: number[] = [];
    const pulledIds = () => [...phone.local.keys()];
    await sendMessages(app, key, 100);
    for (let minute = 0; minute < 4; minute++) {
      if (minute > 0) {
        clock.t += 60_001;
        await phone.pull(); // what the delayed MessageEnqueued makes it do
      }
      await expect.poll(() => phone.local.size).toBe(25 * (minute + 1));
      await phone.idle();
      // Pulling again within the window hands out nothing more.
      await phone.pull();
      expect(phone.local.size).toBe(25 * (minute + 1));
      handed.push(phone.local.size);
    }
    expect(handed).toEqual([25, 50, 75, 100]);
    expect(new Set(pulledIds()).size).toBe(100);
    await expect.poll(() => countByStatus(org.id)).toEqual({ delivered: 100 });
    // Each paced pull asked for a wake-up about a window later.
    const mine = delayedWakes.filter((w) => w.deviceId === phone.id);
    expect(mine.length).toBeGreaterThan(0);
    expect(Math.max(...mine.map((w) => w.delayMs))).toBeGreaterThan(50_000);
    expect(Math.max(...mine.map((w) => w.delayMs))).toBeLessThanOrEqual(60_100);
    phone.disconnect();
  });

  it('hands a pull whose answer was lost to the same phone again, and to no other, even past the claim timeout (app 1.66)', async () => {
    const { org, key } = await app.createOrg({ dailyLimit: 100_000 });
    const phone = await startedPhone(app, org.id, { version: '1.66.0' });
    phone.disconnect();
    const ids = await sendMessages(app, key, 5);
    // The answer is lost on the way: the jobs are claimed for the phone, which never saw them.
    const lost = await phone.call('GET', '/message');
    expect(lost.body.map((m: { id: string }) => m.id).sort()).toEqual([...ids].sort());
    const other = await startedPhone(app, org.id);
    clock.t += 120_000;
    await expect.poll(async () => (await app.ctx.db.query(`SELECT count(*)::int AS n FROM messages WHERE id = ANY($1) AND claimed_at < now() - interval '1.1 seconds'`, [ids])).rows[0].n).toBe(5);
    await withdrawStuckClaims(app.ctx as Parameters<typeof withdrawStuckClaims>[0]);
    await other.pull();
    expect(other.local.size).toBe(0);
    const again = await phone.pull();
    expect(again.map((m) => m.id).sort()).toEqual([...ids].sort());
    for (const m of phone.local.values()) await phone.sendThrough(m);
    expect(await countByStatus(org.id)).toEqual({ delivered: 5 });
    other.disconnect();
  });
});
