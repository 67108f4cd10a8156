import type { Redis } from '../client.js';
import { evalScript, luaScript } from './lua-scripts.js';

const script = luaScript('workWaiting');

/**
 * For phones of one organization (lua/workWaiting-2.lua): whether each has work waiting, in its
 * own queue or the organization's.
 */
export async function workWaiting(redis: Redis, keys: { orgQueue: string; deviceQueuePrefix: string }, args: { deviceIds: readonly string[] }): Promise<boolean[]> {
  if (args.deviceIds.length === 0) return [];
  const flags = (await evalScript(redis, script, [keys.orgQueue, keys.deviceQueuePrefix], [...args.deviceIds])) as number[];
  return flags.map((f) => f === 1);
}
