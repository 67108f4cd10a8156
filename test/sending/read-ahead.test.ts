import { describe, expect, it } from 'vitest';
import { readAhead, unwrap } from '../../src/sending/read-ahead.js';

describe('a read started ahead of its turn', () => {
  it('gives its value, or throws its error where it is unwrapped', async () => {
    expect(unwrap(await readAhead(Promise.resolve(7)))).toBe(7);
    const failed = await readAhead(Promise.reject(new Error('Postgres is down')));
    expect(() => unwrap(failed)).toThrow('Postgres is down');
  });

  it('leaves no unhandled rejection when nobody reaches it (a request refused before)', async () => {
    const unhandled: unknown[] = [];
    const listen = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listen);
    try {
      readAhead(Promise.reject(new Error('never awaited')));
      // Node reports unhandled rejections after the microtasks of the turn; two turns pass here.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('unhandledRejection', listen);
    }
    expect(unhandled).toEqual([]);
  });
});
