import { describe, expect, it } from 'vitest';
import { perContext } from '../../src/batching/per-context.js';

describe('perContext', () => {
  it('makes one value per context, at its first use, and keeps it', () => {
    let made = 0;
    const counterOf = perContext((ctx: { name: string }) => ({ of: ctx.name, n: ++made }));
    const a = { name: 'a' };
    const b = { name: 'b' };
    expect(made).toBe(0);
    const first = counterOf(a);
    expect(counterOf(a)).toBe(first);
    expect(counterOf(b)).toEqual({ of: 'b', n: 2 });
    expect(counterOf(a)).toEqual({ of: 'a', n: 1 });
    expect(made).toBe(2);
  });
});
