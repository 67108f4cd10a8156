import { describe, expect, it } from 'vitest';
import { MessageDetailCache } from '../../src/messages/detail-cache/detail-cache.js';

const body = (status: string) => ({ orgId: 'org_a', json: `{"status":"${status}"}` });

function cache(maxEntries = 10, ttlMs = 1_000) {
  const clock = { t: 0 };
  const c = new MessageDetailCache(maxEntries, ttlMs, () => clock.t);
  c.enable();
  return { c, clock };
}

describe('the cache of message bodies', () => {
  it('answers a body kept from a read no change overtook', () => {
    const { c } = cache();
    const started = c.readStarted();
    c.keep('msg_1', body('queued'), started);
    expect(c.get('msg_1')).toMatchObject(body('queued'));
  });

  it('keeps nothing from a read that a change of the message overtook: it may have read the old row', () => {
    const { c } = cache();
    const started = c.readStarted();
    c.changed(['msg_1']);
    c.keep('msg_1', body('queued'), started);
    expect(c.get('msg_1')).toBeUndefined();
    // A read started after the change heard is kept.
    c.keep('msg_1', body('sent'), c.readStarted());
    expect(c.get('msg_1')?.json).toBe('{"status":"sent"}');
  });

  it("keeps a read's body when only other messages changed meanwhile", () => {
    const { c } = cache();
    const started = c.readStarted();
    c.changed(['msg_2', 'msg_3']);
    c.keep('msg_1', body('queued'), started);
    expect(c.get('msg_1')).toBeDefined();
  });

  it('drops the body of a message that changed', () => {
    const { c } = cache();
    c.keep('msg_1', body('queued'), c.readStarted());
    c.changed(['msg_1']);
    expect(c.get('msg_1')).toBeUndefined();
  });

  it('keeps nothing from a read older than the changes it remembers', () => {
    const { c } = cache(10);
    const started = c.readStarted();
    // More changes than are remembered: the one of msg_1 may be among those forgotten.
    for (let i = 0; i < 9_000; i++) c.changed([`msg_x${i}`]);
    c.keep('msg_1', body('queued'), started);
    expect(c.get('msg_1')).toBeUndefined();
  });

  it('answers a body for ttlMs at most, the bound on a change whose signal was lost', () => {
    const { c, clock } = cache(10, 1_000);
    c.keep('msg_1', body('queued'), c.readStarted());
    clock.t = 1_000;
    expect(c.get('msg_1')).toBeDefined();
    clock.t = 1_001;
    expect(c.get('msg_1')).toBeUndefined();
  });

  it('holds maxEntries bodies, the oldest going first', () => {
    const { c } = cache(2);
    for (const id of ['msg_1', 'msg_2', 'msg_3']) c.keep(id, body('queued'), c.readStarted());
    expect(c.size).toBe(2);
    expect(c.get('msg_1')).toBeUndefined();
    expect(c.get('msg_3')).toBeDefined();
  });

  it('is off and empty while changes may go unheard, and keeps nothing from reads started before it came back', () => {
    const { c } = cache();
    c.keep('msg_1', body('queued'), c.readStarted());
    const started = c.readStarted();
    c.disable();
    expect(c.get('msg_1')).toBeUndefined();
    c.keep('msg_2', body('queued'), c.readStarted());
    expect(c.size).toBe(0);
    c.enable();
    c.keep('msg_3', body('queued'), started);
    expect(c.get('msg_3')).toBeUndefined();
    c.keep('msg_3', body('queued'), c.readStarted());
    expect(c.get('msg_3')).toBeDefined();
  });

  it('minds changes only while it holds a body or a read is under way', () => {
    const { c } = cache();
    expect(c.watching).toBe(false);
    const started = c.readStarted();
    expect(c.watching).toBe(true);
    c.readEnded(); // the read found no message
    expect(c.watching).toBe(false);
    c.keep('msg_1', body('queued'), c.readStarted());
    expect(c.watching).toBe(true);
    c.changed(['msg_1']);
    expect(c.watching).toBe(false);
    expect(started).toBeLessThan(c.readStarted());
  });

  it('keeps nothing when sized 0', () => {
    const { c } = cache(0);
    c.keep('msg_1', body('queued'), c.readStarted());
    expect(c.get('msg_1')).toBeUndefined();
  });
});
