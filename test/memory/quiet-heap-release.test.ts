import { Writable } from 'node:stream';
import v8 from 'node:v8';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { releaseHeapWhenQuiet, type HeapRelease } from '../../src/memory/quiet-heap-release.js';

type Released = { why: string; ms: number; oldSpaceMb: [number, number]; youngMb: [number, number] };

/** A debug logger whose 'heap released while quiet' lines arrive as events. */
function watchedLog() {
  const released: Released[] = [];
  const waiters: ((r: Released) => void)[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      const line = JSON.parse(chunk.toString()) as { msg: string } & Released;
      if (line.msg === 'heap released while quiet') {
        released.push(line);
        waiters.splice(0).forEach((w) => w(line));
      }
      done();
    },
  });
  const next = (withinMs: number) =>
    new Promise<Released>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no release within ${withinMs} ms`)), withinMs);
      waiters.push((r) => {
        clearTimeout(timer);
        resolve(r);
      });
    });
  return { log: pino({ level: 'debug' }, stream), released, next };
}

const oldSpaceMb = () => (v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_size ?? 0) / 2 ** 20;

/** Objects kept through several scavenges (so V8 promotes them to the old generation) until `drop` is called. */
async function burst(mb: number): Promise<{ drop(): void }> {
  const kept: object[][] = [];
  for (let i = 0; i < mb; i += 1) {
    kept.push(Array.from({ length: 10_000 }, (_, j) => ({ j, s: `row ${i} ${j}` })));
    if (i % 8 === 0) await new Promise((r) => setImmediate(r));
  }
  return { drop: () => (kept.length = 0) };
}

let release: HeapRelease | undefined;
afterEach(() => release?.stop());

describe('releaseHeapWhenQuiet', () => {
  it('gives back the old generation a burst grew once the process is quiet', async () => {
    const { log, next } = watchedLog();
    release = releaseHeapWhenQuiet(16, log);
    (await burst(60)).drop();
    const grown = oldSpaceMb();
    const released = await next(5_000);
    expect(released.oldSpaceMb[0]).toBeGreaterThanOrEqual(released.oldSpaceMb[1] + 16);
    expect(oldSpaceMb()).toBeLessThan(grown - 16);
  });

  it('waits while the event loop is busy, and does not collect a quiet process over and over', async () => {
    const { log, released, next } = watchedLog();
    release = releaseHeapWhenQuiet(16, log);
    const work = await burst(60);
    // 8 ms of every 10 busy, for 2.5 s (over the 10% a quiet second allows), the burst's data
    // still in use.
    const busyUntil = Date.now() + 2_500;
    await new Promise<void>((resolve) => {
      const spin = setInterval(() => {
        const until = performance.now() + 8;
        while (performance.now() < until);
        if (Date.now() >= busyUntil) {
          clearInterval(spin);
          resolve();
        }
      }, 10);
    });
    expect(released).toHaveLength(0);
    work.drop();
    await next(5_000);
    // Quiet with nothing new to give back: no second collection in the next checks.
    await expect(next(2_500)).rejects.toThrow('no release');
    expect(released).toHaveLength(1);
  });

  it('lets V8 shrink the young generation once the process has stayed quiet', async () => {
    const { log, released, next } = watchedLog();
    release = releaseHeapWhenQuiet(16, log);
    (await burst(60)).drop();
    // An idle server still allocates a little (heartbeats, timers): V8 reads a rate of zero as unknown.
    let sink: object[] = [];
    const trickle = setInterval(() => (sink = Array.from({ length: 1_000 }, (_, i) => ({ i }))), 100);
    try {
      // The burst's old generation may go first, or V8 may have taken it back itself.
      let young = await next(15_000);
      if (young.why !== 'young generation idle') young = await next(15_000);
      expect(young.why).toBe('young generation idle');
      expect(young.youngMb[1]).toBeLessThan(young.youngMb[0]);
      expect(sink).toHaveLength(1_000);
    } finally {
      clearInterval(trickle);
    }
    expect(released.filter((r) => r.why === 'young generation idle')).toHaveLength(1);
  }, 40_000);

  it('does nothing when set to 0', async () => {
    const { log, next } = watchedLog();
    release = releaseHeapWhenQuiet(0, log);
    (await burst(60)).drop();
    await expect(next(2_500)).rejects.toThrow('no release');
  });
});
