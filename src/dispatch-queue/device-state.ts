import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { carriersOf, encodePrefixes, simCarrier, type Carrier } from '../orgs/carriers.js';
import { writeDeviceStates, type DeviceStateHash } from '../redis/scripts/write-device-states.js';
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
 * each holds (test/lua/device-state.test.ts holds the two alike). lua/writeDeviceStates-3.lua
 * writes all but `coolUntil`, which status reports write after Android's limit; heartbeats write
 * `resting` too.
 */
export const DEVICE_STATE_FIELDS = ['revoked', 'outbound', 'draining', 'pace', 'simCap', 'defaultSim', 'resting', 'coolUntil', 'nets', 'open'] as const;

/**
 * A phone's state hash as Postgres has it, and the networks it is sending on: its entries in the
 * organization's netPhones set (`<carrier>|<deviceId>`), which tell the claim script whether an
 * off-net message should wait for another phone.
 */
export function deviceStateHash(ctx: Pick<Infrastructure, 'config' | 'clock'>, s: DeviceDispatchState): DeviceStateHash {
  const nets = simNets(s, carriersOf(s.carriers));
  return {
    deviceId: s.id,
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
    sendingOn: sending(s) ? [...new Set(nets.map((n) => n.net))] : [],
  };
}

/**
 * Writes the states of phones of one organization, read in one statement (so with the same
 * carriers), in one script call: each phone's writes stay atomic, and its keys share a cluster
 * slot. `rebuild` writes netPhones and the prefix table anew; otherwise the table is written only
 * when Redis has none (syncOrgDeviceStates writes it anew when the carriers change, so a phone's
 * sync that read them just before must not overwrite it).
 */
export async function writeOrgDeviceStates(
  ctx: Pick<Infrastructure, 'keys' | 'config' | 'clock' | 'redis'>,
  orgId: string,
  carriers: Carrier[] | null,
  states: readonly DeviceDispatchState[],
  rebuild = false,
): Promise<void> {
  const k = ctx.keys.org(orgId);
  const table = carriersOf(carriers);
  await writeDeviceStates(
    ctx.redis,
    { netPhones: k.netPhones(), carrierPrefixes: k.carrierPrefixes(), deviceStatePrefix: k.deviceStatePrefix() },
    { prefixTable: encodePrefixes(table), rebuild, carriers: table.map((c) => c.name), phones: states.map((s) => deviceStateHash(ctx, s)) },
  );
}

/**
 * Loads a phone's state from Postgres into Redis. The syncs of one event-loop turn share one
 * statement and one script call per organization: 10,000 phones opening their sockets at once
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
  await Promise.all([...groupBy(states, (s) => s.orgId)].map(([orgId, orgStates]) => writeOrgDeviceStates(ctx, orgId, orgStates[0]!.carriers, orgStates)));
  const byId = new Map(states.map((s) => [s.id, s]));
  return deviceIds.map((id) => byId.get(id));
}

/**
 * After the organization's carriers changed: every phone's state anew, and the netPhones set and
 * the prefix table rebuilt whole (a carrier no longer listed leaves no entry behind), in one
 * script call.
 */
export async function syncOrgDeviceStates(ctx: Infrastructure, orgId: string): Promise<void> {
  const rows = await selectOrgDeviceStates(ctx.db, orgId);
  // Without a phone, the table is left for the first phone's sync to write.
  if (rows.length === 0) await ctx.redis.del(ctx.keys.org(orgId).netPhones(), ctx.keys.org(orgId).carrierPrefixes());
  else await writeOrgDeviceStates(ctx, orgId, rows[0]!.carriers, rows, true);
}
