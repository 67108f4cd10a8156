import { afterAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { endpointLanes } from '../../src/webhooks/worker/endpoint-lanes.js';
import { endpointSlots } from '../../src/webhooks/worker/endpoint-slots.js';
import { redisKeys } from '../../src/redis/keys.js';
import { testRedis } from '../lua/redis.js';

const { redis } = testRedis();
afterAll(() => redis.quit());

const slotsFor = () => endpointSlots(redis, redisKeys(`lanes${randomBytes(4).toString('hex')}`), 2, 10_000);

describe('endpoint lanes', () => {
  it('sends a job back for about half its expected wait when the line is long, and runs every admitted work', async () => {
    // Attempts that end only when the test says so: no attempt has finished, so the line's wait
    // is counted from the age of the oldest one in flight, which the test can bound.
    const release: Array<() => void> = [];
    const attemptStarts: number[] = [];
    const lanes = endpointLanes<number, number>(slotsFor(), 2, (w) => {
      attemptStarts.push(Date.now());
      return new Promise((resolve) => release.push(() => resolve(w)));
    });
    const t0 = Date.now();
    const first = await lanes.run('ep_1', 8, async () => [1, 2, 3, 4, 5, 6, 7, 8]);
    expect(first.ok).toBe(true);
    await sleep(200);
    expect(attemptStarts.length).toBeGreaterThan(0);
    const before = Date.now();
    const oldestStart = Math.min(...attemptStarts);
    const refused = await lanes.run('ep_1', 2, async () => [9, 10]);
    const after = Date.now() - t0;
    expect(refused.ok).toBe(false);
    const retryInMs = (refused as { retryInMs: number }).retryInMs;
    // Expected wait: (6 works waiting + the job's 2) / 2 lanes x the oldest attempt's age, which
    // lies between its age when this job asked and the time since the test began. The job comes
    // back after half of it, +-25%; after all of it, it found the line long gone.
    const minAge = Math.max(0, before - oldestStart);
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

  /** An endpoint whose last attempt took 300 ms, idle now: its estimate says each round takes that long. */
  async function slowEndpointGoneIdle(id: string) {
    const lanes = endpointLanes<number, number>(slotsFor(), 2, (w) => sleep(300).then(() => w));
    const first = await lanes.run(id, 1, async () => [1]);
    if (!first.ok) throw new Error('an idle endpoint must admit');
    await Promise.all(first.results);
    return lanes;
  }

  it("lets a job wait for another job's claim that finds nothing, rather than send it back on an old estimate", async () => {
    const lanes = await slowEndpointGoneIdle('ep_3');
    // A claim of deliveries that are gone (the endpoint was deleted with them) takes 50 ms and finds none.
    let claimFoundNothingAt = 0;
    const empty = lanes.run('ep_3', 2, () =>
      sleep(50).then(() => {
        claimFoundNothingAt = Date.now();
        return [];
      }),
    );
    await sleep(10);
    const next = await lanes.run('ep_3', 2, async () => [7, 8]);
    const admittedAt = Date.now();
    expect((await empty).ok).toBe(true);
    expect(next.ok).toBe(true);
    // Admitted once that claim came back empty, not after the 300 ms the old estimate says a round takes.
    expect(claimFoundNothingAt).toBeGreaterThan(0);
    expect(admittedAt - claimFoundNothingAt).toBeLessThan(250);
    if (next.ok) expect(await Promise.all(next.results)).toEqual([7, 8]);
  });

  it('still sends a job back when the claim it waited for makes a line that takes too long', async () => {
    const lanes = await slowEndpointGoneIdle('ep_4');
    const busy = lanes.run('ep_4', 4, () => sleep(50).then(() => [1, 2, 3, 4]));
    await sleep(10);
    const next = await lanes.run('ep_4', 2, async () => [5, 6]);
    // 4 works waiting + 2, on 2 lanes, at 300 ms an attempt: 900 ms, far past the 250 ms a job may wait here.
    expect(next.ok).toBe(false);
    expect((next as { retryInMs: number }).retryInMs).toBeGreaterThanOrEqual(100);
    const first = await busy;
    if (first.ok) expect(await Promise.all(first.results)).toEqual([1, 2, 3, 4]);
  });

  it('keeps at most two rounds waiting when many jobs come at once to an idle endpoint', async () => {
    const release: Array<() => void> = [];
    const lanes = endpointLanes<number, number>(slotsFor(), 2, (w) => new Promise((resolve) => release.push(() => resolve(w))));
    // Ten jobs of 2 at the same instant, on 2 lanes whose attempts do not end.
    const runs = await Promise.all(Array.from({ length: 10 }, (_, i) => lanes.run('ep_5', 2, () => sleep(20).then(() => [2 * i, 2 * i + 1]))));
    const admitted = runs.filter((r) => r.ok);
    // 2 works in flight and 2 rounds of 2 waiting: the others are told to come back.
    expect(admitted.length).toBeGreaterThanOrEqual(2);
    expect(admitted.length).toBeLessThanOrEqual(3);
    expect(runs.filter((r) => !r.ok).length).toBe(10 - admitted.length);
    const all = Promise.all(admitted.flatMap((r) => (r.ok ? r.results : [])));
    let finished = false;
    void all.then(() => (finished = true));
    while (!finished) {
      release.splice(0).forEach((r) => r());
      await sleep(5);
    }
    expect((await all).length).toBe(2 * admitted.length);
  });
});
