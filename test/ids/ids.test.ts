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
});
