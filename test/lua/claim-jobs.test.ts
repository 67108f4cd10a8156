import { afterAll, describe, expect, it } from 'vitest';
import { claimJobs, type ClaimJobsResult } from '../../src/redis/scripts/claim-jobs.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

const NOW = 1_800_000_000_000;
const meta = (to: string, seg = 1, exp = NOW + 60_000) => JSON.stringify({ to, body: 'x', seg, sim: null, dev: null, exp });

function claim(s: string, max: number): Promise<ClaimJobsResult> {
  return claimJobs(
    redis,
    { deviceQueue: key(`dq${s}`), orgQueue: key(`q${s}`), queueMeta: key(`meta${s}`), deviceState: key(`state${s}`), claiming: key(`claiming${s}`) },
    { deviceId: 'dev_1', max, now: NOW, pacingPrefix: key(`pace${s}:`), utcDay: '20270115' },
  );
}

const SENDING = { revoked: '0', outbound: '1', draining: '0', simCap: '0', defaultSim: '1' };

async function queue(s: string, entries: [string, string | null][], pace = 1000): Promise<void> {
  await redis.hset(key(`state${s}`), { ...SENDING, pace: String(pace) });
  for (const [i, [id, json]] of entries.entries()) {
    await redis.zadd(key(`q${s}`), i, id);
    if (json) await redis.hset(key(`meta${s}`), id, json);
  }
}

describe('lua/claimJobs', () => {
  it('takes up to max messages in queue order into the claiming set, and drops ids whose meta is gone', async () => {
    await queue('a', [
      ['m1', meta('+1')],
      ['m2', null],
      ['m3', meta('+3')],
      ['m4', meta('+4')],
      ['m5', meta('+5')],
    ]);
    expect(await claim('a', 3)).toEqual({
      kind: 'claimed',
      retryAfterMs: 0,
      claimed: [
        { id: 'm1', meta: meta('+1'), sim: 1 },
        { id: 'm3', meta: meta('+3'), sim: 1 },
        { id: 'm4', meta: meta('+4'), sim: 1 },
      ],
    });
    expect(await redis.zrange(key('qa'), '0', '-1')).toEqual(['m5']);
    expect(await redis.zrange(key('claiminga'), '0', '-1', 'WITHSCORES')).toEqual(['m1', String(NOW), 'm3', String(NOW), 'm4', String(NOW)]);
    expect(await redis.hexists(key('metaa'), 'm1')).toBe(1);
  });

  it('skips expired and paced messages, claims what fits after them, and says when to come back', async () => {
    // Pace 2 segments a minute: one (1) fits, big (3) would make 4, small (1) makes 2.
    await queue(
      'b',
      [
        ['old', meta('+1', 1, NOW - 1)],
        ['one', meta('+2', 1)],
        ['big', meta('+3', 3)],
        ['small', meta('+4', 1)],
      ],
      2,
    );
    expect(await claim('b', 5)).toEqual({
      kind: 'claimed',
      retryAfterMs: 60_000 - (NOW % 60_000),
      claimed: [
        { id: 'one', meta: meta('+2', 1), sim: 1 },
        { id: 'small', meta: meta('+4', 1), sim: 1 },
      ],
    });
    expect(await redis.zrange(key('qb'), '0', '-1')).toEqual(['old', 'big']);
    expect(await redis.get(key('paceb:1:m') + Math.floor(NOW / 60_000))).toBe('2');
  });

  it('answers paced, claiming nothing, when the pacing of the minute is spent', async () => {
    await queue('c', [['m1', meta('+1', 2)]], 1);
    await redis.set(key('pacec:1:m') + Math.floor(NOW / 60_000), 1);
    expect(await claim('c', 5)).toEqual({ kind: 'paced', retryAfterMs: 60_000 - (NOW % 60_000) });
    expect(await redis.zrange(key('qc'), '0', '-1')).toEqual(['m1']);
  });

  it('answers deviceStateMissing when the device has no state in Redis, claiming nothing', async () => {
    await redis.zadd(key('qd'), 0, 'm1');
    await redis.hset(key('metad'), 'm1', meta('+1'));
    expect(await claim('d', 5)).toEqual({ kind: 'deviceStateMissing' });
    expect(await redis.zrange(key('qd'), '0', '-1')).toEqual(['m1']);
  });

  it('answers revoked for a revoked device', async () => {
    await queue('e', [['m1', meta('+1')]]);
    await redis.hset(key('statee'), 'revoked', '1');
    expect(await claim('e', 5)).toEqual({ kind: 'revoked' });
  });

  it('answers notSending for a device with outbound disabled or draining', async () => {
    await queue('f', [['m1', meta('+1')]]);
    await redis.hset(key('statef'), 'outbound', '0');
    expect(await claim('f', 5)).toEqual({ kind: 'notSending' });
    await redis.hset(key('statef'), { outbound: '1', draining: '1' });
    expect(await claim('f', 5)).toEqual({ kind: 'notSending' });
    expect(await redis.zrange(key('qf'), '0', '-1')).toEqual(['m1']);
  });
});
