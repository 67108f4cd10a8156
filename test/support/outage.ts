import { expect } from 'vitest';
import type { TestResponse } from './harness.js';
import { expectError } from '../api/expect-error.js';

/** Far above what any answer takes in these tests: an answer later than this counts as hanging. */
export const BOUND_MS = 10_000;

export type TimedResponse = TestResponse & { ms: number };

export async function timed(call: () => Promise<TestResponse>): Promise<TimedResponse> {
  const t0 = Date.now();
  const res = await call();
  return { ...res, ms: Date.now() - t0 };
}

/** Requests in a loop until stopped, every answer kept: what clients see across an outage. */
export function traffic(calls: (() => Promise<TestResponse>)[], concurrency: number) {
  const answers: TimedResponse[] = [];
  let stopped = false;
  const loops = Array.from({ length: concurrency }, async (_, i) => {
    while (!stopped) answers.push(await timed(calls[i % calls.length]!));
  });
  return {
    answers,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      return answers;
    },
  };
}

/** What a request gets while Postgres or Redis is down: 500 in the error shape, a hint to retry, soon. */
export function expectUnavailable(res: TimedResponse): void {
  expectError(res, 500, 'internal_error');
  expect(res.headers.get('retry-after')).toBe('1');
  expect(res.ms).toBeLessThan(BOUND_MS);
}

/** Every answer across the outage: a success, or the unavailable answer; none hung. */
export function expectOnlySuccessOrUnavailable(answers: TimedResponse[]): void {
  for (const a of answers) {
    if (a.status >= 500) expectUnavailable(a);
    else expect([200, 202]).toContain(a.status);
    expect(a.ms).toBeLessThan(BOUND_MS);
  }
  expect(answers.some((a) => a.status === 500)).toBe(true);
}

export interface OutageScenario {
  name: string;
  /** A write and a read of the API, each expected to succeed (2xx) while storage is up. */
  send: () => Promise<TestResponse>;
  list: () => Promise<TestResponse>;
  fault: () => Promise<void>;
  restart: () => Promise<void>;
  /** Extra checks while storage is down. */
  duringOutage?: () => Promise<void>;
}

/**
 * Requests keep coming while storage goes down and comes back: every answer is a success or the
 * unavailable answer, none hangs, and the API serves again soon after storage is back, with no
 * restart of its own. Logs the time it took to serve again.
 */
export async function expectToRideOut(s: OutageScenario): Promise<void> {
  const load = traffic([s.send, s.list], 6);
  const succeeded = () => load.answers.filter((a) => a.status < 300).length >= 5;
  for (const deadline = Date.now() + 15_000; !succeeded(); ) {
    if (Date.now() > deadline) throw new Error('no successful request before the fault');
    await new Promise((r) => setTimeout(r, 10));
  }
  await s.fault();
  expectUnavailable(await timed(s.send));
  expectUnavailable(await timed(s.list));
  await s.duringOutage?.();

  const restarting = Date.now();
  await s.restart();
  const upAt = Date.now();
  for (const deadline = upAt + 15_000; !((await s.send()).status < 300 && (await s.list()).status < 300); ) {
    if (Date.now() > deadline) throw new Error('the API did not serve again within 15 s');
  }
  console.log(`${s.name}: restart took ${upAt - restarting} ms; the API served again ${Date.now() - upAt} ms after it was up`);

  expectOnlySuccessOrUnavailable(await load.stop());
  // Nothing is left broken in the pools or connections: a burst of requests all succeed.
  const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? s.send() : s.list())));
  expect(burst.map((r) => r.status).filter((status) => status >= 300)).toEqual([]);
}
