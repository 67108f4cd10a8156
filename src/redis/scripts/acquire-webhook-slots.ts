import type { Redis } from '../client.js';
import { evalScript, luaScript } from './lua-scripts.js';

const script = luaScript('acquireWebhookSlots');

export interface AcquireWebhookSlotsArgs {
  now: number;
  limit: number;
  /** When the slots taken expire unless refreshed (ms). */
  expiresAt: number;
  /** Time to live of the whole set (ms). */
  setTtlMs: number;
  /** The lanes asking, in order. */
  lanes: string[];
}

/** Takes free slots of one endpoint (lua/acquireWebhookSlots-1.lua); answers how many of the first lanes got one. */
export async function acquireWebhookSlots(redis: Redis, keys: { slots: string }, args: AcquireWebhookSlotsArgs): Promise<number> {
  return (await evalScript(redis, script, [keys.slots], [args.now, args.limit, args.expiresAt, args.setTtlMs, ...args.lanes])) as number;
}
