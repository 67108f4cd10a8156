import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { DEVICE_STATE_FIELDS, writeOrgDeviceStates, type DeviceDispatchState } from '../../src/dispatch-queue/device-state.js';
import { DEFAULT_CARRIERS, encodePrefixes } from '../../src/orgs/carriers.js';
import { redisKeys } from '../../src/redis/keys.js';
import { resolveIncludes } from '../../src/redis/scripts/lua-scripts.js';
import { testRedis } from './redis.js';

const { redis } = testRedis();
afterAll(() => redis.quit());

const NOW = 1_800_000_000_000;
const ctx = { redis, keys: redisKeys(`lua${randomBytes(5).toString('hex')}`), config: { pacingPerMinute: 30 }, clock: { now: () => NOW } } as Parameters<typeof writeOrgDeviceStates>[0];
const keys = ctx.keys.org('test');

/** What the claim script's include reads: its field list, and the state hash KEYS[1] by name. */
const READ = resolveIncludes(`local rcall = redis.call
--- @include "includes/deviceState"
return {cjson.encode(DEVICE_STATE_FIELDS), cjson.encode(readDeviceState(KEYS[1]))}`);

async function readInLua(key: string): Promise<{ fields: string[]; state: Record<string, string | false> }> {
  const [fields, state] = (await redis.eval(READ, 1, key)) as [string, string];
  return { fields: JSON.parse(fields) as string[], state: JSON.parse(state) as Record<string, string | false> };
}

const phone: DeviceDispatchState = {
  id: 'dev_a',
  orgId: 'test',
  revoked: false,
  outboundEnabled: true,
  draining: false,
  pacingPerMinute: null,
  simDailyCap: 200,
  defaultSimSubscriptionId: 2,
  batteryPercent: 10,
  batteryCharging: false,
  networkType: 'lte',
  sims: [
    { subscriptionId: 1, carrierName: 'Airtel' },
    { subscriptionId: 2, carrierName: 'Orange MG' },
  ],
  carriers: null,
  orgSendWindows: null,
  sendWindows: null,
};

async function write(...states: DeviceDispatchState[]): Promise<void> {
  await writeOrgDeviceStates(ctx, 'test', states[0]!.carriers, states);
}

describe("a phone's dispatch state, named alike in TypeScript and in the claim script", () => {
  it('lists the same fields in the same order on both sides', async () => {
    expect((await readInLua(keys.deviceState('none'))).fields).toEqual([...DEVICE_STATE_FIELDS]);
  });

  it('reads by name what writeOrgDeviceStates wrote; a field it did not write (coolUntil) reads false, as Redis hands Lua a nil', async () => {
    await write(phone);
    expect((await readInLua(keys.deviceState('dev_a'))).state).toEqual({
      revoked: '0',
      outbound: '1',
      draining: '0',
      pace: '30',
      simCap: '200',
      defaultSim: '2',
      resting: '1',
      nets: '2=orange,1=airtel',
      open: '',
      coolUntil: false,
    });
  });

  it("keeps one prefix table per organization, dropping a phone's own copy from before, and leaves a table already there to the organization's sync", async () => {
    await redis.hset(keys.deviceState('dev_b'), 'prefixes', '+26132=orange');
    await write({ ...phone, id: 'dev_b' });
    expect(await redis.hexists(keys.deviceState('dev_b'), 'prefixes')).toBe(0);
    expect(await redis.get(keys.carrierPrefixes())).toBe(encodePrefixes(DEFAULT_CARRIERS));
    // A phone's sync that read the carriers before they changed does not undo the table written after.
    await redis.set(keys.carrierPrefixes(), '+22176=free');
    await write({ ...phone, id: 'dev_c' });
    expect(await redis.get(keys.carrierPrefixes())).toBe('+22176=free');
  });

  it('lists a sending phone on the networks of its SIMs, and takes it off them when it stops sending', async () => {
    await write({ ...phone, id: 'dev_d', batteryPercent: 80 }, { ...phone, id: 'dev_e', batteryPercent: 80, sims: [{ subscriptionId: 1, carrierName: 'Yas' }] });
    expect(await redis.zrange(keys.netPhones(), '0', '-1')).toEqual(expect.arrayContaining(['orange|dev_d', 'airtel|dev_d', 'telma|dev_e']));
    await write({ ...phone, id: 'dev_d', batteryPercent: 80, sims: [{ subscriptionId: 1, carrierName: 'Airtel' }] }, { ...phone, id: 'dev_e', batteryPercent: 80, draining: true });
    const listed = await redis.zrange(keys.netPhones(), '0', '-1');
    expect(listed).toContain('airtel|dev_d');
    expect(listed).not.toContain('orange|dev_d');
    expect(listed.filter((m) => m.endsWith('|dev_e'))).toEqual([]);
  });

  it("rebuilt after the organization's carriers changed: the new table replaces the old, and entries on a carrier no longer listed go", async () => {
    await write({ ...phone, id: 'dev_f', batteryPercent: 80 });
    const carriers = [{ name: 'mobile', prefixes: ['+26139'], simNames: ['orange'] }];
    await writeOrgDeviceStates(ctx, 'test', carriers, [{ ...phone, id: 'dev_f', batteryPercent: 80, carriers }], true);
    expect(await redis.get(keys.carrierPrefixes())).toBe('+26139=mobile');
    expect(await redis.zrange(keys.netPhones(), '0', '-1')).toEqual(['mobile|dev_f']);
    expect((await readInLua(keys.deviceState('dev_f'))).state.nets).toBe('2=mobile');
  });
});
