import type { Redis } from '../client.js';
import { evalScript, luaScript } from './lua-scripts.js';

const script = luaScript('revokedPhones');

/** Whether each of an organization's phones is revoked by its dispatch state (lua/revokedPhones-1.lua), in order. */
export async function revokedPhones(redis: Redis, keys: { deviceStatePrefix: string }, args: { deviceIds: readonly string[] }): Promise<boolean[]> {
  const flags = (await evalScript(redis, script, [keys.deviceStatePrefix], [...args.deviceIds])) as number[];
  return flags.map((f) => f === 1);
}
