import { afterAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { endpointLanes } from '../../src/webhooks/worker/endpoint-lanes.js';
import { endpointSlots } from '../../src/webhooks/worker/endpoint-slots.js';
import { testRedis } from '../lua/redis.js';

const { redis } = testRedis();
afterAll(() => redis.quit());

const ATTEMPT_MS = 300;

describe('endpoint lanes', () => {
  it('sends a job back for about half its expected wait when the line is long, and runs every admitted work', async () => {
    const slots = endpointSlots(redis, `lanes${randomBytes(4).toString('hex')}`, 2, 10_000);
    const done: number[] = [];
    const lanes = endpointLanes<number, number>(slots, 2, async (w) => {
      await sleep(ATTEMPT_MS);
      done.push(w);
      return w;
    });
    const first = await lanes.run('ep_1', 8, async () => [1, 2, 3, 4, 5, 6, 7, 8]);
    expect(first.ok).toBe(true);
    // Two attempts done, two in flight, four waiting: the line needs about (4 + 2) / 2 rounds of ~300 ms.
    await sleep(ATTEMPT_MS + 50);
    const refused = await lanes.run('ep_1', 2, async () => [9, 10]);
    expect(refused.ok).toBe(false);
    const retryInMs = (refused as { retryInMs: number }).retryInMs;
    // Half of ~900 ms, jittered by ±25%: back while the line still runs, not after it has emptied.
    expect(retryInMs).toBeGreaterThan(250);
    expect(retryInMs).toBeLessThan(700);
    if (first.ok) expect(await Promise.all(first.results)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(done.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('admits a job at once on an idle endpoint', async () => {
    const slots = endpointSlots(redis, `lanes${randomBytes(4).toString('hex')}`, 2, 10_000);
    const lanes = endpointLanes<string, string>(slots, 2, async (w) => w.toUpperCase());
    const run = await lanes.run('ep_2', 2, async () => ['a', 'b']);
    expect(run.ok).toBe(true);
    if (run.ok) expect(await Promise.all(run.results)).toEqual(['A', 'B']);
  });
});
