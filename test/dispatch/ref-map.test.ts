import { describe, expect, it } from 'vitest';
import { RefMap, SMALL_REFS } from '../../src/dispatch/ref-map.js';

const entries = <V>(m: RefMap<V>) => {
  const out: [string, V][] = [];
  m.forEach((v, ref) => out.push([ref, v]));
  return out;
};

describe("a socket's map of refs", () => {
  it('keeps refs oldest first, a ref set again in its place, before and after it grows into a Map', () => {
    const m = new RefMap<number>();
    for (let i = 0; i < SMALL_REFS; i++) m.set(`r${i}`, i);
    m.set('r0', 100);
    expect(entries(m).slice(0, 2)).toEqual([
      ['r0', 100],
      ['r1', 1],
    ]);
    for (let i = SMALL_REFS; i < SMALL_REFS * 3; i++) m.set(`r${i}`, i);
    m.set('r1', 101);
    expect(m.size).toBe(SMALL_REFS * 3);
    expect(entries(m).map(([ref]) => ref)).toEqual(Array.from({ length: SMALL_REFS * 3 }, (_, i) => `r${i}`));
    expect([m.get('r0'), m.get('r1'), m.get(`r${SMALL_REFS * 2}`), m.get('nope')]).toEqual([100, 101, SMALL_REFS * 2, undefined]);
    expect(m.shift()).toEqual(['r0', 100]);
    expect(m.shift()).toEqual(['r1', 101]);
  });

  it('answers as a Map does through any mix of sets, deletes and shifts', () => {
    let seed = 7;
    // xorshift32: the same sequence every run.
    const random = (n: number) => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    const model = new Map<string, number>();
    let m = new RefMap<number>();
    let grown = 0;
    for (let step = 0; step < 5_000; step++) {
      // A new map now and then, as each window of a socket's answers begins empty.
      if (step % 500 === 0) {
        model.clear();
        m = new RefMap<number>();
      }
      // Sets outnumber deletes and shifts, so the map keeps crossing from pairs to a Map.
      const ref = `r${random(SMALL_REFS * 4)}`;
      const op = random(10);
      if (op < 7) {
        model.set(ref, step);
        m.set(ref, step);
      } else if (op < 9) {
        model.delete(ref);
        m.delete(ref);
      } else {
        const first = model.entries().next();
        if (!first.done) model.delete(first.value[0]);
        expect(m.shift()).toEqual(first.done ? undefined : first.value);
      }
      expect(m.get(ref)).toBe(model.get(ref));
      expect(m.size).toBe(model.size);
      if (model.size > SMALL_REFS) grown++;
      if (step % 100 === 99) expect(entries(m)).toEqual([...model]);
    }
    expect(grown).toBeGreaterThan(1000);
  });

  it('is empty to begin with', () => {
    const m = new RefMap<string>();
    expect([m.size, m.get('a'), m.shift(), entries(m)]).toEqual([0, undefined, undefined, []]);
  });
});
