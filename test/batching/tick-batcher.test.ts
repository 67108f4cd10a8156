import { describe, expect, it } from 'vitest';
import { TickBatcher } from '../../src/batching/tick-batcher.js';

const tick = () => new Promise((r) => setImmediate(r));

function recorder(delayMs = 0) {
  const batches: number[][] = [];
  let release: (() => void)[] = [];
  const run = async (keys: number[]) => {
    batches.push(keys);
    if (delayMs > 0) await new Promise<void>((r) => release.push(r));
    return keys.map((k) => k * 10);
  };
  return {
    batches,
    run,
    releaseAll: () => {
      release.forEach((r) => r());
      release = [];
    },
  };
}

describe('TickBatcher', () => {
  it('answers every caller of one turn from one batch, each with its own value', async () => {
    const r = recorder();
    const b = new TickBatcher(r.run);
    expect(await Promise.all([b.load(1), b.load(2), b.load(3)])).toEqual([10, 20, 30]);
    expect(r.batches).toEqual([[1, 2, 3]]);
  });

  it('splits a turn into batches of at most maxBatch', async () => {
    const r = recorder();
    const b = new TickBatcher(r.run, 2);
    expect(await Promise.all([1, 2, 3, 4, 5].map((k) => b.load(k)))).toEqual([10, 20, 30, 40, 50]);
    expect(r.batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('with maxInFlight, gathers the lookups of later turns while a batch runs and sends them together when it returns', async () => {
    const r = recorder(1);
    const b = new TickBatcher(r.run, 256, 1);
    const first = b.load(1);
    await tick();
    const later = [b.load(2)];
    await tick();
    later.push(b.load(3));
    await tick();
    expect(r.batches).toEqual([[1]]);
    r.releaseAll();
    expect(await first).toBe(10);
    await tick();
    expect(r.batches).toEqual([[1], [2, 3]]);
    r.releaseAll();
    expect(await Promise.all(later)).toEqual([20, 30]);
  });

  it('with queueMicrotask as gather, sends once the current promise jobs are done, before the turn ends', async () => {
    const r = recorder();
    const b = new TickBatcher(r.run, 256, Infinity, queueMicrotask);
    const first = [b.load(1), b.load(2)];
    await Promise.resolve();
    await Promise.resolve();
    expect(r.batches).toEqual([[1, 2]]);
    expect(await Promise.all([...first, b.load(3)])).toEqual([10, 20, 30]);
    expect(r.batches).toEqual([[1, 2], [3]]);
  });

  it('rejects every caller of a failed batch, and serves the next one', async () => {
    let fail = true;
    const b = new TickBatcher(
      async (keys: number[]) => {
        if (fail) throw new Error('down');
        return keys;
      },
      256,
      1,
    );
    const results = await Promise.allSettled([b.load(1), b.load(2)]);
    expect(results.map((x) => x.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await b.load(3)).toBe(3);
  });
});
