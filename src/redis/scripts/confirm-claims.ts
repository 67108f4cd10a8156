import type { Redis } from '../client.js';
import { evalScript, luaScript } from './lua-scripts.js';

const script = luaScript('confirmClaims');

/** Ends the claim of messages Postgres has decided (lua/confirmClaims-2.lua); answers how many left the claiming set. */
export async function confirmClaims(redis: Redis, keys: { claiming: string; queueMeta: string }, args: { messageIds: string[] }): Promise<number> {
  return (await evalScript(redis, script, [keys.claiming, keys.queueMeta], args.messageIds)) as number;
}
