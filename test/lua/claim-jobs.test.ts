import { afterAll, describe, expect, it } from 'vitest';
import type { ClaimJobsResult } from '../../src/redis/scripts/claim-jobs.js';
import { claimOnTestKeys, testRedis } from './redis.js';
import { IGNORE_WINDOWS_LEAD_MS } from '../../src/dispatch-queue/entries.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

const NOW = 1_800_000_000_000;
const HOUR = NOW + 3_600_000;
const meta = (to: string, seg = 1, exp = NOW + 60_000, sim: number | null = null) => JSON.stringify({ to, body: 'x', seg, sim, dev: null, exp });

const claim = (s: string, max: number, now = NOW, offNetWaitMs = 20_000): Promise<ClaimJobsResult> => claimOnTestKeys(redis, key, s, max, now, offNetWaitMs);

const SENDING = { revoked: '0', outbound: '1', draining: '0', simCap: '0', defaultSim: '1', nets: '', open: '' };

/** A sending phone's state hash, and its organization's prefix table ('' for none). */
async function sendingPhone(s: string, state: Record<string, string>, prefixes = ''): Promise<void> {
  await redis.hset(key(`state${s}`), { ...SENDING, ...state });
  await redis.set(key(`prefixes${s}`), prefixes);
}

async function queue(s: string, entries: [string, string | null][], pace = 1000): Promise<void> {
  await sendingPhone(s, { pace: String(pace) });
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
        { id: 'm1', meta: meta('+1'), sim: 1, why: 'sim_default' },
        { id: 'm3', meta: meta('+3'), sim: 1, why: 'sim_default' },
        { id: 'm4', meta: meta('+4'), sim: 1, why: 'sim_default' },
      ],
    });
    expect(await redis.zrange(key('qa'), '0', '-1')).toEqual(['m5']);
    expect(await redis.zrange(key('claiminga'), '0', '-1', 'WITHSCORES')).toEqual(['m1', String(NOW), 'm3', String(NOW), 'm4', String(NOW)]);
    expect(await redis.hexists(key('metaa'), 'm1')).toBe(1);
  });

  it('skips expired and paced messages, claims what fits after them, and says when to come back', async () => {
    // Pace 2 parts per 60 s: one (1) fits, big (3) would make 4, small (1) makes 2.
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
      retryAfterMs: 60_000, // the window was empty: what was just claimed leaves it a minute from now
      claimed: [
        { id: 'one', meta: meta('+2', 1), sim: 1, why: 'sim_default' },
        { id: 'small', meta: meta('+4', 1), sim: 1, why: 'sim_default' },
      ],
    });
    expect(await redis.zrange(key('qb'), '0', '-1')).toEqual(['old', 'big']);
    expect(await redis.zrange(key('paceb:w'), '0', '-1', 'WITHSCORES')).toEqual([`2:${NOW}:one`, String(NOW)]);
    expect(await redis.get(key('paceb:1:d20270115'))).toBe('2');
  });

  it('answers paced, claiming nothing, while the last 60 s hold the pace, until the oldest parts leave', async () => {
    await queue('c', [['m1', meta('+1', 2)]], 1);
    await redis.zadd(key('pacec:w'), NOW - 20_000, '1:earlier');
    expect(await claim('c', 5)).toEqual({ kind: 'paced', retryAfterMs: 40_000 });
    expect(await redis.zrange(key('qc'), '0', '-1')).toEqual(['m1']);
    // 60 s after the earlier claim its part no longer counts: the 2-part message goes, alone.
    expect(await claim('c', 5, NOW + 40_000)).toMatchObject({ kind: 'claimed', claimed: [{ id: 'm1' }] });
  });

  it('keeps the sum of the window beside it, less what leaves, and sums the window again when the sum is lost', async () => {
    await queue(
      'ws',
      Array.from({ length: 8 }, (_, i): [string, string] => [`m${i}`, meta(`+${i}`, 1, NOW + 3_600_000)]),
      4,
    );
    expect(await claim('ws', 3)).toMatchObject({ kind: 'claimed', claimed: [{ id: 'm0' }, { id: 'm1' }, { id: 'm2' }] });
    expect(await redis.get(key('pacews:ws'))).toBe('3');
    // 30 s on: one more part fits; the window's four parts are now the pace.
    expect(await claim('ws', 3, NOW + 30_000)).toMatchObject({ kind: 'claimed', claimed: [{ id: 'm3' }] });
    expect(await redis.get(key('pacews:ws'))).toBe('4');
    expect(await claim('ws', 3, NOW + 31_000)).toEqual({ kind: 'paced', retryAfterMs: 29_000 });
    // Redis lost the sum (not the window): it is summed again, and the pace still holds.
    await redis.del(key('pacews:ws'));
    expect(await claim('ws', 3, NOW + 32_000)).toEqual({ kind: 'paced', retryAfterMs: 28_000 });
    expect(await redis.get(key('pacews:ws'))).toBe('4');
    // The first three leave at +60 s: three parts fit again, and the sum says so.
    expect(await claim('ws', 5, NOW + 60_000)).toMatchObject({ kind: 'claimed', claimed: [{ id: 'm4' }, { id: 'm5' }, { id: 'm6' }] });
    expect(await redis.get(key('pacews:ws'))).toBe('4');
  });

  it('counts a message put back and claimed again within the minute twice: each claim is its own entry of the window', async () => {
    await queue('again', [['m1', meta('+1', 1, HOUR)]], 3);
    expect(await claim('again', 5)).toMatchObject({ kind: 'claimed', claimed: [{ id: 'm1' }] });
    // Withdrawn (a reconnecting phone's jobs go back): queued again, claimed again by the same phone.
    await redis.zadd(key('qagain'), 0, 'm1');
    expect(await claim('again', 5, NOW + 1_000)).toMatchObject({ kind: 'claimed', claimed: [{ id: 'm1' }] });
    expect(await redis.zrange(key('paceagain:w'), '0', '-1')).toEqual([`1:${NOW}:m1`, `1:${NOW + 1_000}:m1`]);
    expect(await redis.get(key('paceagain:ws'))).toBe('2');
    // Both leave the window in their turn: at +60 s the first, and the sum follows.
    await redis.zadd(key('qagain'), 0, 'm1');
    expect(await claim('again', 5, NOW + 60_000)).toMatchObject({ kind: 'claimed', claimed: [{ id: 'm1' }] });
    expect(await redis.get(key('paceagain:ws'))).toBe('2');
  });

  it('paces the phone as a whole: parts on its two SIMs share one window', async () => {
    // Android counts an app's parts, not a SIM's: 3 parts for the phone, whichever SIM.
    await queue(
      'g',
      [
        ['s1', meta('+1', 2, HOUR, 1)],
        ['s2', meta('+2', 2, HOUR, 2)],
        ['s3', meta('+3', 1, HOUR, 2)],
      ],
      3,
    );
    const first = await claim('g', 5);
    expect(first).toMatchObject({ kind: 'claimed', retryAfterMs: 60_000 });
    expect((first as { claimed: { id: string; sim: number }[] }).claimed.map((c) => [c.id, c.sim])).toEqual([
      ['s1', 1],
      ['s3', 2],
    ]);
    expect(await claim('g', 5, NOW + 30_000)).toEqual({ kind: 'paced', retryAfterMs: 30_000 });
    expect(await claim('g', 5, NOW + 60_000)).toMatchObject({ kind: 'claimed', claimed: [{ id: 's2', sim: 2 }] });
  });

  it('keeps a daily cap per SIM beside the window', async () => {
    await queue(
      'h',
      [
        ['a', meta('+1', 1, NOW + 60_000, 1)],
        ['b', meta('+2', 1, NOW + 60_000, 1)],
        ['c', meta('+3', 1, NOW + 60_000, 2)],
      ],
      100,
    );
    await redis.hset(key('stateh'), 'simCap', '1');
    const r = await claim('h', 5);
    expect((r as { claimed: { id: string }[] }).claimed.map((c) => c.id)).toEqual(['a', 'c']);
    expect(await redis.zrange(key('qh'), '0', '-1')).toEqual(['b']);
  });

  it("takes urgent entries (scored an hour back or more) of both queues before the phone's own queue", async () => {
    await sendingPhone('l', { pace: '1000' });
    await redis.zadd(key('dql'), NOW - 1_000, 'pinned');
    await redis.zadd(key('ql'), NOW - 3_600_000, 'urgent', NOW - 500, 'shared');
    for (const id of ['pinned', 'urgent', 'shared']) await redis.hset(key('metal'), id, meta(`+${id}`));
    const r = await claim('l', 3);
    expect((r as { claimed: { id: string }[] }).claimed.map((c) => c.id)).toEqual(['urgent', 'pinned', 'shared']);
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

  it("answers paced until the cool-down a phone got for hitting Android's limit is over", async () => {
    await queue('k', [['m1', meta('+1')]]);
    await redis.hset(key('statek'), 'coolUntil', String(NOW + 45_000));
    expect(await claim('k', 5)).toEqual({ kind: 'paced', retryAfterMs: 45_000 });
    expect(await claim('k', 5, NOW + 45_000)).toMatchObject({ kind: 'claimed', claimed: [{ id: 'm1' }] });
  });

  it('answers resting for a phone with a low battery and no charger, or no service', async () => {
    await queue('i', [['m1', meta('+1')]]);
    await redis.hset(key('statei'), 'resting', '1');
    expect(await claim('i', 5)).toEqual({ kind: 'resting' });
    expect(await redis.zrange(key('qi'), '0', '-1')).toEqual(['m1']);
  });

  it('answers deviceStateMissing for a state hash holding only what a heartbeat wrote after a flush', async () => {
    await redis.hset(key('statej'), 'resting', '0');
    await redis.zadd(key('qj'), 0, 'm1');
    expect(await claim('j', 5)).toEqual({ kind: 'deviceStateMissing' });
  });

  it('answers deviceStateMissing for a state written before carrier routing (no prefix table), so it is loaded anew', async () => {
    await redis.hset(key('stateold'), { revoked: '0', outbound: '1', draining: '0', simCap: '0', defaultSim: '1', pace: '10' });
    await redis.zadd(key('qold'), 0, 'm1');
    expect(await claim('old', 5)).toEqual({ kind: 'deviceStateMissing' });
  });

  it('claims nothing, without asking for the state, when nothing is queued for the phone', async () => {
    // A phone opening its socket before any heartbeat: no state in Redis, and no work.
    expect(await claim('idle', 5)).toEqual({ kind: 'claimed', claimed: [], retryAfterMs: 0 });
    expect(await redis.exists(key('stateidle'))).toBe(0);
    // Work queued: now the missing state matters.
    await redis.zadd(key('qidle'), 0, 'm1');
    expect(await claim('idle', 5)).toEqual({ kind: 'deviceStateMissing' });
  });

  it("answers deviceStateMissing while Redis holds no prefix table for the organization (lost, or each phone's own copy from before), then claims", async () => {
    await queue('pt', [['m1', meta('+261320000001')]]);
    await redis.del(key('prefixespt'));
    // A phone's copy in its state hash, as written before the organization's key held the table, is not read.
    await redis.hset(key('statept'), { prefixes: '+26132=orange', nets: '2=orange' });
    expect(await claim('pt', 5)).toEqual({ kind: 'deviceStateMissing' });
    expect(await redis.zrange(key('qpt'), '0', '-1')).toEqual(['m1']);
    await redis.set(key('prefixespt'), '+26132=orange');
    expect(await claim('pt', 5)).toMatchObject({ kind: 'claimed', claimed: [{ id: 'm1', sim: 2, why: 'sim_on_net' }] });
  });

  it('answers notSending for a device with outbound disabled or draining', async () => {
    await queue('f', [['m1', meta('+1')]]);
    await redis.hset(key('statef'), 'outbound', '0');
    expect(await claim('f', 5)).toEqual({ kind: 'notSending' });
    await redis.hset(key('statef'), { outbound: '1', draining: '1' });
    expect(await claim('f', 5)).toEqual({ kind: 'notSending' });
    expect(await redis.zrange(key('qf'), '0', '-1')).toEqual(['m1']);
  });
  it('reads past a head of messages this phone must leave, up to four pages, to claim what waits behind them', async () => {
    const avoided = JSON.stringify({ to: '+9', body: 'x', seg: 1, sim: null, dev: null, exp: NOW + 600_000, av: 'dev_1', avu: NOW + 60_000 });
    // A claim of max 2 reads 2 entries, then pages of 8, up to 32 in all: 12 withdrawn from this phone, then 2 it may take.
    const head: [string, string | null][] = Array.from({ length: 12 }, (_, i) => [`w${String(i).padStart(2, '0')}`, avoided]);
    await queue('pages', [...head, ['free1', meta('+1', 1, NOW + 600_000)], ['free2', meta('+2', 1, NOW + 600_000)]]);
    const got = await claim('pages', 2);
    expect(got.kind === 'claimed' && got.claimed.map((c) => c.id)).toEqual(['free1', 'free2']);
    expect(await redis.zcard(key('qpages'))).toBe(12);
    // The 32nd entry is still read; past four pages' worth (32 entries of max 2 * 4), the phone gets nothing this time.
    const edge: [string, string | null][] = Array.from({ length: 31 }, (_, i) => [`e${String(i).padStart(2, '0')}`, avoided]);
    await queue('edge', [...edge, ['free', meta('+1', 1, NOW + 600_000)]]);
    const last = await claim('edge', 2);
    expect(last.kind === 'claimed' && last.claimed.map((c) => c.id)).toEqual(['free']);
    const deep: [string, string | null][] = Array.from({ length: 32 }, (_, i) => [`d${String(i).padStart(2, '0')}`, avoided]);
    await queue('deep', [...deep, ['free', meta('+1', 1, NOW + 600_000)]]);
    const none = await claim('deep', 2);
    expect(none.kind === 'claimed' && none.claimed).toEqual([]);
  });

  it('leaves a message withdrawn from this phone to the others until its avoid time, then takes it', async () => {
    const avoided = (until: number) => JSON.stringify({ to: '+9', body: 'x', seg: 1, sim: null, dev: null, exp: NOW + 600_000, av: 'dev_1', avu: until });
    const otherPhone = JSON.stringify({ to: '+8', body: 'x', seg: 1, sim: null, dev: null, exp: NOW + 600_000, av: 'dev_2', avu: NOW + 60_000 });
    await queue('avoid', [
      ['back', avoided(NOW + 60_000)],
      ['theirs', otherPhone],
      ['lapsed', avoided(NOW - 1)],
    ]);
    const first = await claim('avoid', 5);
    expect(first.kind === 'claimed' && first.claimed.map((c) => c.id)).toEqual(['theirs', 'lapsed']);
    // Still queued, not dropped and not counted as paced.
    expect(await redis.zrange(key('qavoid'), '0', '-1')).toEqual(['back']);
    expect(first.kind === 'claimed' && first.retryAfterMs).toBe(0);
    const later = await claim('avoid', 5, NOW + 60_001);
    expect(later.kind === 'claimed' && later.claimed.map((c) => c.id)).toEqual(['back']);
  });
});

describe('lua/claimJobs: carrier-aware choice of SIM', () => {
  const PREFIXES = '+26132=orange,+26137=orange,+26133=airtel,+26134=telma,+26138=telma,+2613499=airtel';
  const picks = (r: ClaimJobsResult) => (r.kind === 'claimed' ? r.claimed.map((c) => [c.id, c.sim, c.why]) : r);

  async function phone(s: string, state: Record<string, string>, entries: [string, number, string][], queueKey = `q${s}`): Promise<void> {
    await sendingPhone(s, { pace: '1000', ...state }, PREFIXES);
    for (const [id, score, json] of entries) {
      await redis.zadd(key(queueKey), score, id);
      await redis.hset(key(`meta${s}`), id, json);
    }
  }

  it("sends from the SIM on the recipient's network (longest prefix wins), the named SIM when the send named one, else the default", async () => {
    // SIM 1 Orange (the default), SIM 2 Telma; nobody has Airtel.
    await phone('n1', { nets: '1=orange,2=telma' }, [
      ['telma', 1, meta('+261340000001')],
      ['orange', 2, meta('+261320000001')],
      ['airtel', 3, meta('+261330000001')],
      ['ported', 4, meta('+261349900001')],
      ['named', 5, meta('+261340000002', 1, NOW + 60_000, 1)],
      ['foreign', 6, meta('+33612345678')],
    ]);
    expect(picks(await claim('n1', 10))).toEqual([
      ['telma', 2, 'sim_on_net'],
      ['orange', 1, 'sim_on_net'],
      ['airtel', 1, 'sim_default'],
      ['ported', 1, 'sim_default'],
      ['named', 1, 'sim_requested'],
      ['foreign', 1, 'sim_default'],
    ]);
  });

  it('falls back to the default SIM when the SIM on the network spent its daily cap', async () => {
    await phone('n2', { nets: '1=orange,2=telma', simCap: '1' }, [
      ['t1', 1, meta('+261340000001')],
      ['t2', 2, meta('+261340000002')],
      ['t3', 3, meta('+261340000003')],
    ]);
    // t3: both SIMs spent their day (cap 1 each): it stays, counted as paced.
    expect(picks(await claim('n2', 10))).toEqual([
      ['t1', 2, 'sim_on_net'],
      ['t2', 1, 'on_net_sim_capped'],
    ]);
    expect(await redis.zrange(key('qn2'), '0', '-1')).toEqual(['t3']);
  });

  it('leaves an off-net message of the organization queue to a phone on its network until the wait ends, then takes it', async () => {
    // dev_1 has only Orange; dev_2 (another sending phone) has Airtel.
    await redis.zadd(key('netn3'), 0, 'airtel|dev_2', 0, 'orange|dev_1');
    await phone('n3', { nets: '1=orange' }, [
      ['airtel', NOW - 5_000, meta('+261330000001', 1, NOW + 600_000)],
      ['telma', NOW - 5_000, meta('+261340000001', 1, NOW + 600_000)],
      ['orange', NOW - 4_000, meta('+261320000001', 1, NOW + 600_000)],
    ]);
    // A message pinned to this phone has no other way out: it never waits.
    await phone('n3', { nets: '1=orange' }, [['pinned', NOW - 5_000, meta('+261330000002', 1, NOW + 600_000)]], 'dqn3');
    const first = await claim('n3', 10);
    expect(picks(first)).toEqual([
      ['pinned', 1, 'sim_default'],
      ['telma', 1, 'sim_default'],
      ['orange', 1, 'sim_on_net'],
    ]);
    // Come back when the Airtel message's 20 s are over (queued 5 s ago).
    expect(first.kind === 'claimed' && first.retryAfterMs).toBe(15_000);
    expect(await redis.zrange(key('qn3'), '0', '-1')).toEqual(['airtel']);
    expect(picks(await claim('n3', 10, NOW + 14_999))).toEqual([]);
    expect(picks(await claim('n3', 10, NOW + 15_000))).toEqual([['airtel', 1, 'off_net_after_wait']]);
  });

  it('does not wait when the only phone on the network is this one, or the wait is off', async () => {
    await redis.zadd(key('netn4'), 0, 'airtel|dev_1');
    await phone('n4', { nets: '1=orange' }, [['airtel', NOW, meta('+261330000001')]]);
    expect(picks(await claim('n4', 10))).toEqual([['airtel', 1, 'sim_default']]);

    await redis.zadd(key('netn5'), 0, 'airtel|dev_2');
    await phone('n5', { nets: '1=orange' }, [['airtel', NOW, meta('+261330000001')]]);
    expect(picks(await claim('n5', 10, NOW, 0))).toEqual([['airtel', 1, 'sim_default']]);
  });
});

describe('lua/claimJobs: send windows', () => {
  const MIN = 60_000;
  // Open from 10 minutes ago to 20 minutes from now, and again an hour later; worked out up to a day ahead.
  const horizon = NOW + 86_400_000;
  const closedNow = `${NOW - MIN}-${horizon}|${NOW + 30 * MIN}-${NOW + 90 * MIN},${NOW + 3 * 60 * MIN}-${NOW + 4 * 60 * MIN}`;
  const iwMeta = (to: string) => JSON.stringify({ to, body: 'code', seg: 1, sim: null, dev: null, exp: HOUR, iw: 1 });
  const IW = -IGNORE_WINDOWS_LEAD_MS; // an entry queued ten years ahead, as entries.ts scores it

  async function windowed(s: string, open: string, entries: [string, number, string][]): Promise<void> {
    await sendingPhone(s, { pace: '1000', open });
    for (const [id, score, json] of entries) {
      await redis.zadd(key(`q${s}`), NOW + score, id);
      await redis.hset(key(`meta${s}`), id, json);
    }
  }

  it('outside the windows takes only messages that ignore them, however many wait in front, and says when the windows open', async () => {
    const waiting: [string, number, string][] = Array.from({ length: 30 }, (_, i) => [`w${i}`, i, meta(`+${i}`, 1, HOUR)]);
    // A message put back by an interrupted claim is scored 0 (return-to-queues.ts): the meta still says it waits.
    await windowed('qa', closedNow, [...waiting, ['code', IW + 40, iwMeta('+999')], ['returned', -NOW, meta('+998', 1, HOUR)]]);
    const r = await claim('qa', 2);
    expect(r).toMatchObject({ kind: 'claimed', retryAfterMs: 60_000, claimed: [{ id: 'code' }] });
    expect(await redis.zcard(key('qqa'))).toBe(31); // the others stay queued, in order
    expect(await redis.zrange(key('paceqa:w'), '0', '-1')).toEqual([`1:${NOW}:code`]);

    // Within a minute of the opening, the answer is the time left; once open, the oldest go first.
    expect(await claim('qa', 2, NOW + 29 * MIN + 30_000)).toEqual({ kind: 'claimed', claimed: [], retryAfterMs: 30_000 });
    const open = await claim('qa', 3, NOW + 30 * MIN);
    expect(open).toMatchObject({ kind: 'claimed', retryAfterMs: 0 });
    expect((open as { claimed: { id: string }[] }).claimed.map((c) => c.id)).toEqual(['returned', 'w0', 'w1']);
    // Closed again between the two ranges: nothing more.
    expect(await claim('qa', 3, NOW + 100 * MIN)).toEqual({ kind: 'claimed', claimed: [], retryAfterMs: 60_000 });
  });

  it('does not let an expired message that ignores the windows out', async () => {
    await windowed('qb', closedNow, [['late', IW, JSON.stringify({ to: '+1', body: 'code', seg: 1, sim: null, dev: null, exp: NOW - 1, iw: 1 })]]);
    expect(await claim('qb', 5)).toEqual({ kind: 'claimed', claimed: [], retryAfterMs: 60_000 });
  });

  it('takes everything at any hour when no windows apply, and asks for the state anew once its open times run out, or when it has none', async () => {
    await windowed('qc', '', [['m', 0, meta('+1', 1, HOUR)]]);
    expect(await claim('qc', 5, NOW)).toMatchObject({ kind: 'claimed', claimed: [{ id: 'm' }] });
    await windowed('qd', closedNow, [['m', 0, meta('+1', 1, HOUR)]]);
    expect(await claim('qd', 5, horizon)).toEqual({ kind: 'deviceStateMissing' });
    expect(await claim('qd', 5, NOW - MIN - 1)).toEqual({ kind: 'deviceStateMissing' }); // worked out by a clock ahead of this one
    expect(await redis.zcard(key('qqd'))).toBe(1);
    await redis.hdel(key('stateqd'), 'open'); // written before send windows
    expect(await claim('qd', 5, NOW)).toEqual({ kind: 'deviceStateMissing' });
  });

  it('with no opening before the horizon, comes back in a minute', async () => {
    await windowed('qe', `${NOW}-${horizon}|`, [['m', 0, meta('+1', 1, HOUR)]]);
    expect(await claim('qe', 5)).toEqual({ kind: 'claimed', claimed: [], retryAfterMs: 60_000 });
  });
});
