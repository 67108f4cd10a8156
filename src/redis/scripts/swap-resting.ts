import type { Redis } from '../client.js';
import { evalScript, luaScript, type LuaArg } from './lua-scripts.js';

const script = luaScript('swapResting');

/**
 * Sets phones' `resting` field, all of one organization (lua/swapResting-1.lua); answers, in
 * order, what each was before ('1', '0', or null when the state hash had none).
 */
export async function swapResting(redis: Redis, keys: { deviceStatePrefix: string }, args: { writes: readonly { deviceId: string; resting: boolean }[] }): Promise<(string | null)[]> {
  const argv: LuaArg[] = [];
  for (const w of args.writes) argv.push(w.deviceId, w.resting ? 1 : 0);
  const was = (await evalScript(redis, script, [keys.deviceStatePrefix], argv)) as (string | null)[];
  return was.map((v) => v ?? null);
}
