import { afterAll, describe, expect, it } from 'vitest';
import { decodeDispatchMeta, dispatchMeta, jobOf, type DispatchFields } from '../../src/dispatch-queue/dispatch-meta.js';
import { dispatchScore } from '../../src/dispatch-queue/entries.js';
import { claimOnTestKeys, testRedis } from '../lua/redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

const NOW = 1_800_000_000_000;
const MIN = 60_000;
const fields = (f: Partial<DispatchFields> = {}): DispatchFields => ({ body: 'x', segments: 1, simSubscriptionId: null, requestedDeviceId: null, expiresAt: NOW + 10 * MIN, ...f });
const SENDING = { revoked: '0', outbound: '1', draining: '0', simCap: '0', defaultSim: '1', nets: '1=orange,2=telma', open: '', pace: '1000' };
const PREFIXES = '+26132=orange,+26134=telma';

/** Queues what dispatchMeta writes and claims it as dev_1 would: what the script took, on which SIM and why. */
async function claimWritten(s: string, entries: [string, string, number?][], state: Record<string, string> = {}, max = 10) {
  await redis.hset(key(`state${s}`), { ...SENDING, ...state });
  await redis.set(key(`prefixes${s}`), PREFIXES);
  for (const [i, [id, meta, score]] of entries.entries()) {
    await redis.zadd(key(`q${s}`), score ?? NOW + i, id);
    await redis.hset(key(`meta${s}`), id, meta);
  }
  const r = await claimOnTestKeys(redis, key, s, max, NOW, 0);
  if (r.kind !== 'claimed') throw new Error(`claim answered ${r.kind}`);
  return r.claimed;
}

describe('the dispatch JSON', () => {
  it('decodes to what was written, quotes and all', () => {
    const body = 'Say "hi" \\ to Ny Ranto, naka 50 000 Ar 🎉\n';
    expect(decodeDispatchMeta(dispatchMeta('+261341234567', fields({ body, segments: 2, simSubscriptionId: 2, requestedDeviceId: 'dev_9' })))).toEqual({
      to: '+261341234567',
      body,
      seg: 2,
      sim: 2,
      dev: 'dev_9',
      exp: NOW + 10 * MIN,
    });
    expect(decodeDispatchMeta(dispatchMeta('+1', fields({ avoid: { deviceId: 'dev_2', until: NOW + MIN }, ignoreSendWindows: true })))).toEqual({
      to: '+1',
      body: 'x',
      seg: 1,
      sim: null,
      dev: null,
      exp: NOW + 10 * MIN,
      av: 'dev_2',
      avu: NOW + MIN,
      iw: 1,
    });
  });

  it('becomes the job the phone receives, on the SIM the claim chose', () => {
    const meta = decodeDispatchMeta(dispatchMeta('+261341234567', fields({ body: 'hello', segments: 3 })));
    expect(jobOf('msg_1', meta, 2)).toEqual({ messageId: 'msg_1', to: '+261341234567', body: 'hello', segments: 3, simSubscriptionId: 2, expiresAt: new Date(NOW + 10 * MIN).toISOString() });
    expect(jobOf('msg_1', meta, -1).simSubscriptionId).toBeNull();
  });
});

describe('lua/claimJobs reads the dispatch JSON that TypeScript writes', () => {
  it('to: the SIM on the recipient network; sim: the SIM the send named', async () => {
    const claimed = await claimWritten('a', [
      ['telma', dispatchMeta('+261340000001', fields())],
      ['orange', dispatchMeta('+261320000001', fields())],
      ['named', dispatchMeta('+261340000002', fields({ simSubscriptionId: 1 }))],
    ]);
    expect(claimed.map((c) => [c.id, c.sim, c.why])).toEqual([
      ['telma', 2, 'sim_on_net'],
      ['orange', 1, 'sim_on_net'],
      ['named', 1, 'sim_requested'],
    ]);
    // The script hands back the JSON as it was written.
    expect(decodeDispatchMeta(claimed[0]!.meta)).toMatchObject({ to: '+261340000001', seg: 1 });
  });

  it('exp: an expired message is not taken; seg: parts count against pacing', async () => {
    const claimed = await claimWritten(
      'b',
      [
        ['expired', dispatchMeta('+1', fields({ expiresAt: NOW - 1 }))],
        ['one', dispatchMeta('+2', fields())],
        ['long', dispatchMeta('+3', fields({ segments: 2 }))],
        ['short', dispatchMeta('+4', fields())],
      ],
      { pace: '2' },
    );
    // Two parts a minute: one and short fit, long would make three.
    expect(claimed.map((c) => c.id)).toEqual(['one', 'short']);
  });

  it('av and avu: the phone a message was withdrawn from does not take it again before then; another does', async () => {
    const claimed = await claimWritten('c', [
      ['mine', dispatchMeta('+1', fields({ avoid: { deviceId: 'dev_1', until: NOW + MIN } }))],
      ['lapsed', dispatchMeta('+2', fields({ avoid: { deviceId: 'dev_1', until: NOW - 1 } }))],
      ['other', dispatchMeta('+3', fields({ avoid: { deviceId: 'dev_2', until: NOW + MIN } }))],
    ]);
    expect(claimed.map((c) => c.id)).toEqual(['lapsed', 'other']);
  });

  it('iw: outside the send windows only a message that ignores them is taken', async () => {
    const closedNow = `${NOW - MIN}-${NOW + 86_400_000}|${NOW + 30 * MIN}-${NOW + 90 * MIN}`;
    const claimed = await claimWritten(
      'd',
      [
        ['waits', dispatchMeta('+1', fields()), dispatchScore(NOW, 0)],
        ['code', dispatchMeta('+2', fields({ ignoreSendWindows: true })), dispatchScore(NOW, 0, true)],
      ],
      { open: closedNow },
    );
    expect(claimed.map((c) => c.id)).toEqual(['code']);
  });
});
