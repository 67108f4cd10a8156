import type { Redis } from '../client.js';
import { evalScript, luaScript, type LuaArg } from './lua-scripts.js';

const script = luaScript('writeDeviceStates');

export interface WriteDeviceStatesKeys {
  netPhones: string;
  carrierPrefixes: string;
  /** What each phone's state key starts with (keys.deviceStatePrefix). */
  deviceStatePrefix: string;
}

/** One phone's state hash as the claim script reads it (lua/includes/deviceState.lua), but coolUntil. */
export interface DeviceStateHash {
  deviceId: string;
  revoked: 0 | 1;
  outbound: 0 | 1;
  draining: 0 | 1;
  pace: number;
  simCap: number;
  defaultSim: number;
  resting: 0 | 1;
  nets: string;
  open: string;
  /** The carriers the phone is sending on: its entries in netPhones. Empty while it is not sending. */
  sendingOn: readonly string[];
}

export interface WriteDeviceStatesArgs {
  /** The organization's prefix table (encodePrefixes). */
  prefixTable: string;
  /** rebuild: netPhones and the prefix table written anew; otherwise the table is written only when Redis has none. */
  rebuild: boolean;
  /** Every carrier of the organization: each phone's entry on each is removed before its own are added. */
  carriers: readonly string[];
  phones: readonly DeviceStateHash[];
}

/** Writes phones' dispatch states of one organization in one call (lua/writeDeviceStates-3.lua); answers how many. */
export async function writeDeviceStates(redis: Redis, keys: WriteDeviceStatesKeys, args: WriteDeviceStatesArgs): Promise<number> {
  const argv: LuaArg[] = [args.prefixTable, args.rebuild ? 'rebuild' : '', args.carriers.join(',')];
  for (const p of args.phones) {
    argv.push(p.deviceId, p.revoked, p.outbound, p.draining, p.pace, p.simCap, p.defaultSim, p.resting, p.nets, p.open, p.sendingOn.join(','));
  }
  return (await evalScript(redis, script, [keys.netPhones, keys.carrierPrefixes, keys.deviceStatePrefix], argv)) as number;
}
