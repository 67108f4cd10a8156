import { describe, expect, it } from 'vitest';
import { RESPONSE_EXCERPT_BYTES, responseExcerpt } from '../../../src/webhooks/delivery/response-excerpt.js';

const chunksOf = (text: string | Buffer, size = 7): Buffer[] => {
  const all = typeof text === 'string' ? Buffer.from(text) : text;
  const out: Buffer[] = [];
  for (let at = 0; at < all.length; at += size) out.push(all.subarray(at, at + size));
  return out;
};

describe('responseExcerpt', () => {
  it('is empty for a body without bytes', () => {
    expect(responseExcerpt([])).toBe('');
    expect(responseExcerpt([Buffer.alloc(0)])).toBe('');
  });

  it('keeps a short ASCII body as it came, across chunks', () => {
    expect(responseExcerpt(chunksOf('{"ok":true,"id":"evt_1"}'))).toBe('{"ok":true,"id":"evt_1"}');
  });

  it('cuts an ASCII body at the cap', () => {
    const body = 'x'.repeat(RESPONSE_EXCERPT_BYTES + 500);
    expect(responseExcerpt(chunksOf(body, 300))).toBe('x'.repeat(RESPONSE_EXCERPT_BYTES));
  });

  it('reads NUL as U+FFFD, in ASCII and in UTF-8 bodies', () => {
    expect(responseExcerpt([Buffer.from('a\u0000b')])).toBe('a\uFFFDb');
    expect(responseExcerpt([Buffer.from('é\u0000')])).toBe('é\uFFFD');
  });

  it('drops a character the cap cuts, and reads bytes that are not UTF-8 as U+FFFD', () => {
    const body = `${'a'.repeat(RESPONSE_EXCERPT_BYTES - 1)}é`;
    expect(responseExcerpt(chunksOf(body, 100))).toBe('a'.repeat(RESPONSE_EXCERPT_BYTES - 1));
    expect(responseExcerpt([Buffer.from([0x61, 0xff, 0x62])])).toBe('a\uFFFDb');
  });

  it('keeps an ASCII body with NUL within the cap once each NUL is U+FFFD', () => {
    const body = Buffer.from(`${'a'.repeat(RESPONSE_EXCERPT_BYTES - 2)}\u0000b`);
    const text = responseExcerpt([body]);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(RESPONSE_EXCERPT_BYTES);
    // 1,022 + 3 + 1 bytes once NUL is U+FFFD: cut back to the cap, the replacement goes too.
    expect(text).toBe('a'.repeat(RESPONSE_EXCERPT_BYTES - 2));
  });

  it('never stores more than the cap once written as UTF-8', () => {
    const invalid = Buffer.alloc(RESPONSE_EXCERPT_BYTES, 0xff);
    const text = responseExcerpt([invalid]);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(RESPONSE_EXCERPT_BYTES);
    expect(text.length).toBeGreaterThan(0);
  });
});
