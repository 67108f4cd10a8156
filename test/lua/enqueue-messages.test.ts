import { afterAll, describe, expect, it } from 'vitest';
import { enqueueMessages } from '../../src/redis/scripts/enqueue-messages.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

const enqueue = (pinned: boolean, suffix: string, entries: [string, number, string][]) =>
  enqueueMessages(
    redis,
    { orgQueue: key(`q${suffix}`), deviceQueue: key(`qdev${suffix}`), queueMeta: key(`meta${suffix}`) },
    {
      pinnedToDevice: pinned,
      messages: entries.map(([id, score, meta]) => ({ id, score, meta })),
    },
  );

describe('lua/enqueueMessages', () => {
  it('queues on the organization queue with the dispatch details beside it', async () => {
    expect(
      await enqueue(false, 'a', [
        ['m1', 10, '{"to":"+1"}'],
        ['m2', 11, '{"to":"+2"}'],
      ]),
    ).toBe(2);
    expect(await redis.zrange(key('qa'), '0', '-1', 'WITHSCORES')).toEqual(['m1', '10', 'm2', '11']);
    expect(await redis.hgetall(key('metaa'))).toEqual({ m1: '{"to":"+1"}', m2: '{"to":"+2"}' });
    expect(await redis.exists(key('qdeva'))).toBe(0);
  });

  it('queues a pinned message on the device queue only', async () => {
    expect(await enqueue(true, 'b', [['m1', 10, '{}']])).toBe(1);
    expect(await redis.zrange(key('qdevb'), '0', '-1')).toEqual(['m1']);
    expect(await redis.exists(key('qb'))).toBe(0);
  });

  it('changes nothing when run again for the same messages', async () => {
    await enqueue(false, 'c', [['m1', 10, '{"v":1}']]);
    expect(
      await enqueue(false, 'c', [
        ['m1', 99, '{"v":2}'],
        ['m2', 12, '{}'],
      ]),
    ).toBe(1);
    expect(await redis.zrange(key('qc'), '0', '-1', 'WITHSCORES')).toEqual(['m1', '10', 'm2', '12']);
    expect(await redis.hget(key('metac'), 'm1')).toBe('{"v":1}');
  });

  it('skips a message whose dispatch details are already stored, even if it is off the queue', async () => {
    await enqueue(false, 'd', [['m1', 10, '{}']]);
    await redis.zrem(key('qd'), 'm1');
    expect(await enqueue(false, 'd', [['m1', 10, '{}']])).toBe(0);
    expect(await redis.zcard(key('qd'))).toBe(0);
  });

  it('keeps the first of two entries for one message in a call, and queues sends larger than one chunk', async () => {
    expect(
      await enqueue(false, 'e', [
        ['m1', 10, '{"v":1}'],
        ['m1', 20, '{"v":2}'],
      ]),
    ).toBe(1);
    expect(await redis.zrange(key('qe'), '0', '-1', 'WITHSCORES')).toEqual(['m1', '10']);
    expect(await redis.hget(key('metae'), 'm1')).toBe('{"v":1}');
    const many = Array.from({ length: 2_500 }, (_, i): [string, number, string] => [`n${i}`, i, `{"i":${i}}`]);
    expect(await enqueue(false, 'f', many)).toBe(2_500);
    expect(await redis.zcard(key('qf'))).toBe(2_500);
    expect(await redis.hget(key('metaf'), 'n2499')).toBe('{"i":2499}');
    expect(await enqueue(false, 'f', many)).toBe(0);
  });
});

describe('lua/enqueueMessages, arguments', () => {
  it('keeps each message with its own score and details when they travel one per line', async () => {
    const entries = Array.from({ length: 7 }, (_, i): [string, number, string] => [`p${i}`, 1_000 + i * 1.5, JSON.stringify({ to: `+26134000000${i}`, body: `line one\nline ${i}` })]);
    expect(await enqueue(false, 'g', entries)).toBe(7);
    const scored = await redis.zrange(key('qg'), '0', '-1', 'WITHSCORES');
    expect(scored).toEqual(entries.flatMap(([id, score]) => [id, String(score)]));
    for (const [id, , meta] of entries) expect(await redis.hget(key('metag'), id)).toBe(meta);
  });

  it('refuses a dispatch JSON with a raw line break and queues nothing', async () => {
    await expect(
      enqueue(false, 'h', [
        ['m1', 10, '{}'],
        ['m2', 11, '{"to":\n"+2"}'],
      ]),
    ).rejects.toThrow(/m2 holds a line break/);
    expect(await redis.exists(key('qh'), key('metah'))).toBe(0);
  });

  it('calls nothing for no messages', async () => {
    expect(await enqueue(false, 'i', [])).toBe(0);
    expect(await redis.exists(key('qi'), key('metai'))).toBe(0);
  });
});
