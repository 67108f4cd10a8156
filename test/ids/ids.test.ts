import { describe, expect, it } from 'vitest';
import { idFloor, newId, newIds, PATH_ID } from '../../src/ids/ids.js';

const SHAPE = /^msg_[0-9A-HJKMNP-TV-Z]{24}$/;

describe('ids', () => {
  it('are prefixed, 24 Crockford base32 characters, and valid path ids', () => {
    for (const id of newIds('message', 50)) {
      expect(id).toMatch(SHAPE);
      expect(id).toMatch(PATH_ID);
    }
    expect(newId('webhookDelivery')).toMatch(/^whd_/);
  });

  it('sort in creation order, within one millisecond and across batches', () => {
    const now = Date.now();
    const made = [...newIds('message', 500), newId('message', now), ...newIds('message', 3), newId('message', now + 5)];
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
  });

  it('carry their millisecond: between the floors of that millisecond and the next', () => {
    const ms = Date.now() + 60_000; // ahead of every id made so far, so this one starts its millisecond
    const id = newId('message', ms);
    expect(id > idFloor('message', ms)).toBe(true);
    expect(id < idFloor('message', ms + 1)).toBe(true);
    const next = newId('message', ms);
    expect(next > id).toBe(true);
    expect(next < idFloor('message', ms + 1)).toBe(true);
  });

  it('stay unique and in order through the carries of 5,000 ids in one millisecond', () => {
    const ms = Date.now() + 120_000; // ahead of the other tests' milliseconds
    const made = Array.from({ length: 5000 }, () => newId('message', ms));
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
    // Every id of that millisecond shares its time, and the random parts count up by one.
    const digits = (id: string) => [...id.slice(14)].reduce((n, c) => n * 32n + BigInt('0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(c)), 0n);
    for (let i = 1; i < made.length; i++) expect(digits(made[i]!) - digits(made[i - 1]!)).toBe(1n);
    expect(new Set(made.map((id) => id.slice(0, 14))).size).toBe(1);
  });

  it('draw a new random part in each millisecond, past the bytes drawn at once', () => {
    const start = Date.now() + 240_000; // ahead of the other tests' milliseconds
    const made = Array.from({ length: 1000 }, (_, i) => newId('message', start + i));
    const randomParts = new Set(made.map((id) => id.slice(14)));
    // 70 random bits each: any two equal would be a repeat, not chance.
    expect(randomParts.size).toBe(made.length);
  });
});
