import { afterAll, describe, expect, it } from 'vitest';
import { runScript } from '../../src/redis/scripts.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

const NOW = 1_800_000_000_000;
const meta = (to: string, seg = 1, exp = NOW + 60_000) => JSON.stringify({ to, body: 'x', seg, sim: null, dev: null, exp });

/** claimJobs(KEYS deviceQueue, orgQueue, meta, deviceState, claiming; ARGV device, max, now, pacePrefix, day) */
async function claim(s: string, max: number): Promise<(string | number)[]> {
  return runScript(redis, 'claimJobs', [key(`dq${s}`), key(`q${s}`), key(`meta${s}`), key(`state${s}`), key(`claiming${s}`)],
    ['dev_1', max, NOW, key(`pace${s}:`), '20270115']);
}

async function queue(s: string, entries: [string, string | null][], pace = 1000): Promise<void> {
  await redis.hset(key(`state${s}`), { revoked: '0', outbound: '1', draining: '0', pace: String(pace), simCap: '0', defaultSim: '1' });
  for (const [i, [id, json]] of entries.entries()) {
    await redis.zadd(key(`q${s}`), i, id);
    if (json) await redis.hset(key(`meta${s}`), id, json);
  }
}

describe('lua/claimJobs', () => {
  it('takes up to max messages in queue order into the claiming set, and drops ids whose meta is gone', async () => {
    await queue('a', [['m1', meta('+1')], ['m2', null], ['m3', meta('+3')], ['m4', meta('+4')], ['m5', meta('+5')]]);
    const reply = await claim('a', 3);
    expect(reply).toEqual([1, 0, 'm1', meta('+1'), 1, 'm3', meta('+3'), 1, 'm4', meta('+4'), 1]);
    expect(await redis.zrange(key('qa'), '0', '-1')).toEqual(['m5']);
    expect(await redis.zrange(key('claiminga'), '0', '-1', 'WITHSCORES')).toEqual(['m1', String(NOW), 'm3', String(NOW), 'm4', String(NOW)]);
    expect(await redis.hexists(key('metaa'), 'm1')).toBe(1);
  });

  it('skips expired and paced messages, claims what fits after them, and says when to come back', async () => {
    // Pace 2 segments a minute: one (1) fits, big (3) would make 4, small (1) makes 2.
    await queue('b', [['old', meta('+1', 1, NOW - 1)], ['one', meta('+2', 1)], ['big', meta('+3', 3)], ['small', meta('+4', 1)]], 2);
    const reply = await claim('b', 5);
    expect(reply.slice(0, 2)).toEqual([1, 60_000 - (NOW % 60_000)]);
    expect(reply.slice(2)).toEqual(['one', meta('+2', 1), 1, 'small', meta('+4', 1), 1]);
    expect(await redis.zrange(key('qb'), '0', '-1')).toEqual(['old', 'big']);
    expect(await redis.get(key('paceb:1:m') + Math.floor(NOW / 60_000))).toBe('2');
  });
});
