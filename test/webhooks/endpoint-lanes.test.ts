import { afterAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { endpointLanes } from '../../src/webhooks/worker/endpoint-lanes.js';
import { endpointSlots } from '../../src/webhooks/worker/endpoint-slots.js';
import { testRedis } from '../lua/redis.js';

const { redis } = testRedis();
afterAll(() => redis.quit());

const slotsFor = () => endpointSlots(redis, `lanes${randomBytes(4).toString('hex')}`, 2, 10_000);

describe('endpoint lanes', () => {
  it('sends a job back for about half its expected wait when the line is long, and runs every admitted work', async () => {
    // Attempts that end only when the test says so: no attempt has finished, so the line's wait
    // is counted from the age of the oldest one in flight, which the test can bound.
    const release: Array<() => void> = [];
    const lanes = endpointLanes<number, number>(slotsFor(), 2, (w) => new Promise((resolve) => release.push(() => resolve(w))));
    const t0 = Date.now();
    const first = await lanes.run('ep_1', 8, async () => [1, 2, 3, 4, 5, 6, 7, 8]);
    expect(first.ok).toBe(true);
    const startedBy = Date.now() - t0;
    await sleep(200);
    const before = Date.now() - t0;
    const refused = await lanes.run('ep_1', 2, async () => [9, 10]);
    const after = Date.now() - t0;
    expect(refused.ok).toBe(false);
    const retryInMs = (refused as { retryInMs: number }).retryInMs;
    // Expected wait: (6 works waiting + the job's 2) / 2 lanes x the oldest attempt's age, which
    // lies between before - startedBy - 20 ms (the lanes take Redis slots first) and after. The
    // job comes back after half of it, +-25%; after all of it, it found the line long gone.
    const minAge = Math.max(0, before - startedBy - 20);
    expect(retryInMs).toBeGreaterThanOrEqual(0.5 * 4 * minAge * 0.75);
    expect(retryInMs).toBeLessThanOrEqual(0.5 * 4 * after * 1.25);

    // Let every attempt end: each lane then takes the next work of the line.
    if (!first.ok) return;
    const all = Promise.all(first.results);
    let finished = false;
    void all.then(() => (finished = true));
    while (!finished) {
      release.splice(0).forEach((r) => r());
      await sleep(5);
    }
    expect(await all).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('admits a job at once on an idle endpoint', async () => {
    const lanes = endpointLanes<string, string>(slotsFor(), 2, async (w) => w.toUpperCase());
    const run = await lanes.run('ep_2', 2, async () => ['a', 'b']);
    expect(run.ok).toBe(true);
    if (run.ok) expect(await Promise.all(run.results)).toEqual(['A', 'B']);
  });
});
