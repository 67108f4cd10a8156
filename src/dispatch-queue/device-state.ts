import type { ChainableCommander } from 'ioredis';
import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { carriersOf, encodePrefixes, simCarrier, type Carrier } from '../orgs/carriers.js';
import { encodeOpenTimes } from '../send-windows/windows.js';
import { TickBatcher } from '../batching/tick-batcher.js';
import { groupBy } from '../batching/group-by.js';
import { perContext } from '../batching/per-context.js';
import type { DeviceDispatchState, PhoneCondition } from './sql/select-device-state.js';
import { selectDeviceStates } from './sql/select-device-states.js';
import { selectOrgDeviceStates } from './sql/select-org-device-states.js';

/** Below this, a phone that is not charging takes no new job: it may die with jobs in hand. */
export const LOW_BATTERY_PERCENT = 15;

export type { DeviceDispatchState, PhoneCondition } from './sql/select-device-state.js';

/**
 * A phone that should take nothing new for now: its battery is low and not charging, or it has
 * no service. It keeps what it holds; the next heartbeat that says otherwise lets it claim again.
 */
export function isResting(c: PhoneCondition): boolean {
  const lowBattery = c.batteryPercent !== null && c.batteryPercent < LOW_BATTERY_PERCENT && c.batteryCharging !== true;
  return lowBattery || c.networkType?.toLowerCase() === 'none';
}

/** A phone that may claim now: the only ones an off-net message waits for. */
const sending = (s: DeviceDispatchState): boolean => !s.revoked && s.outboundEnabled && !s.draining && !isResting(s);

/**
 * The phone's SIMs on a known carrier, as the claim script reads them (`3=orange,5=telma`): the
 * default SIM first, so that of two SIMs on one network the default is used.
 */
function simNets(s: DeviceDispatchState, carriers: readonly Carrier[]): { sim: number; net: string }[] {
  const sims = [...s.sims].sort((a, b) => Number(b.subscriptionId === s.defaultSimSubscriptionId) - Number(a.subscriptionId === s.defaultSimSubscriptionId));
  return sims.flatMap((sim) => {
    const net = simCarrier(carriers, sim.carrierName);
    return net === null ? [] : [{ sim: sim.subscriptionId, net }];
  });
}

/**
 * The fields of a phone's dispatch state hash (keys.deviceState), as the claim script reads them
 * by name: lua/includes/deviceState.lua lists the same fields in the same order, and says what
 * each holds (test/lua/device-state.test.ts holds the two alike). writeDeviceState writes all but
 * `coolUntil`, which status reports write after Android's limit; heartbeats write `resting` too.
 */
export const DEVICE_STATE_FIELDS = ['revoked', 'outbound', 'draining', 'pace', 'simCap', 'defaultSim', 'resting', 'coolUntil', 'nets', 'open'] as const;
export type DeviceStateField = (typeof DEVICE_STATE_FIELDS)[number];

/**
 * Queues the writes of one phone's state: its hash; its entries in the organization's netPhones
 * set (`<carrier>|<deviceId>` for each network it has a SIM on, while it is sending), which tells
 * the claim script whether an off-net message should wait for another phone; and the
 * organization's prefix table when Redis has none (one copy for all its phones:
 * syncOrgDeviceStates writes it anew when the carriers change, so a phone's sync that read them
 * just before must not overwrite it). Writers of many phones of one organization write the
 * table once (`withPrefixTable` false, then writePrefixTable).
 */
export function writeDeviceState(ctx: Pick<Infrastructure, 'keys' | 'config' | 'clock'>, tx: ChainableCommander, s: DeviceDispatchState, withPrefixTable = true): void {
  const k = ctx.keys.org(s.orgId);
  const carriers = carriersOf(s.carriers);
  const nets = simNets(s, carriers);
  const state: Record<Exclude<DeviceStateField, 'coolUntil'>, number | string> = {
    revoked: s.revoked ? 1 : 0,
    outbound: s.outboundEnabled ? 1 : 0,
    draining: s.draining ? 1 : 0,
    pace: s.pacingPerMinute ?? ctx.config.pacingPerMinute,
    simCap: s.simDailyCap ?? 0,
    defaultSim: s.defaultSimSubscriptionId ?? -1,
    resting: isResting(s) ? 1 : 0,
    nets: nets.map((n) => `${n.sim}=${n.net}`).join(','),
    // When both the organization's windows and the phone's are open, worked out ahead (src/send-windows).
    open: encodeOpenTimes([s.orgSendWindows, s.sendWindows], ctx.clock.now()),
  };
  tx.hset(k.deviceState(s.id), state);
  // Each phone's copy of the prefix table, from before the organization's key held it.
  tx.hdel(k.deviceState(s.id), 'prefixes');
  if (withPrefixTable) writePrefixTable(ctx, tx, s);
  if (carriers.length > 0) tx.zrem(k.netPhones(), ...carriers.map((c) => `${c.name}|${s.id}`));
  const on = [...new Set(nets.map((n) => n.net))];
  if (sending(s) && on.length > 0) tx.zadd(k.netPhones(), ...on.flatMap((net) => [0, `${net}|${s.id}`]));
}

/** The organization's prefix table, unless Redis has one (see writeDeviceState). */
function writePrefixTable(ctx: Pick<Infrastructure, 'keys'>, tx: ChainableCommander, s: DeviceDispatchState): void {
  tx.set(ctx.keys.org(s.orgId).carrierPrefixes(), encodePrefixes(carriersOf(s.carriers)), 'NX');
}

/**
 * Loads a phone's state from Postgres into Redis. The syncs of one event-loop turn share one
 * statement and one transaction per organization: 10,000 phones opening their sockets at once
 * (each claim and each first heartbeat may sync) cost a few dozen round trips, not 20,000, and
 * the organization's prefix table is sent once a batch instead of once a phone. A sync asked
 * while a batch runs goes into the next one, which reads Postgres after the change it follows.
 */
export async function syncDeviceState(ctx: Infrastructure, deviceId: string): Promise<DeviceDispatchState | undefined> {
  return stateSyncs(ctx).load(deviceId);
}

const stateSyncs = perContext((ctx: Infrastructure) => new TickBatcher((deviceIds: string[]) => syncDeviceStates(ctx, deviceIds), 500));

async function syncDeviceStates(ctx: Infrastructure, deviceIds: string[]): Promise<(DeviceDispatchState | undefined)[]> {
  const states = await selectDeviceStates(ctx.db, [...new Set(deviceIds)]);
  // One transaction per organization: its keys share a cluster slot, and each phone's writes stay atomic.
  await Promise.all(
    [...groupBy(states, (s) => s.orgId).values()].map((orgStates) => {
      const tx = ctx.redis.multi();
      // The states were read in one statement: the organization's carriers are the same in each.
      writePrefixTable(ctx, tx, orgStates[0]!);
      for (const s of orgStates) writeDeviceState(ctx, tx, s, false);
      return tx.exec();
    }),
  );
  const byId = new Map(states.map((s) => [s.id, s]));
  return deviceIds.map((id) => byId.get(id));
}

/**
 * After the organization's carriers changed: every phone's state anew, and the netPhones set and
 * the prefix table rebuilt whole (a carrier no longer listed leaves no entry behind), in one
 * transaction.
 */
export async function syncOrgDeviceStates(ctx: Infrastructure, orgId: string): Promise<void> {
  const rows = await selectOrgDeviceStates(ctx.db, orgId);
  const tx = ctx.redis.multi();
  tx.del(ctx.keys.org(orgId).netPhones(), ctx.keys.org(orgId).carrierPrefixes());
  for (const s of rows) writeDeviceState(ctx, tx, s);
  await tx.exec();
}
