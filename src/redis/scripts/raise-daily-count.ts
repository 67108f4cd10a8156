import type { Redis } from '../client.js';
import { evalScript, luaScript } from './lua-scripts.js';

const script = luaScript('raiseDailyCount');

/** lua/raiseDailyCount-1.lua's replies other than the count. */
export const RaiseDailyCountCode = { counterMissing: -1 } as const;

/**
 * Raises a daily counter to a floor, never lowering it (lua/raiseDailyCount-1.lua). Answers the
 * counter after, or null when it is not in Redis (the next send seeds it anew).
 */
export async function raiseDailyCount(redis: Redis, keys: { dailyCount: string }, args: { floor: number }): Promise<number | null> {
  const after = (await evalScript(redis, script, [keys.dailyCount], [args.floor])) as number;
  return after === RaiseDailyCountCode.counterMissing ? null : after;
}
