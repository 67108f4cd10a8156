import type { Redis } from '../client.js';
import { evalScript, luaScript, type LuaArg } from './lua-scripts.js';

const script = luaScript('enqueueMessages');

export interface EnqueueMessagesKeys {
  orgQueue: string;
  /** The device's queue when pinned, else a placeholder of the same organization. */
  deviceQueue: string;
  queueMeta: string;
}

/** A message to queue: its enqueue order and its dispatch JSON. */
export interface QueuedMessage {
  id: string;
  score: number;
  meta: string;
}

/** Queues messages on the device's queue or the organization's (lua/enqueueMessages-3.lua); answers how many were newly queued. */
export async function enqueueMessages(redis: Redis, keys: EnqueueMessagesKeys, args: { pinnedToDevice: boolean; messages: readonly QueuedMessage[] }): Promise<number> {
  const argv: LuaArg[] = [args.pinnedToDevice ? 1 : 0];
  for (const m of args.messages) argv.push(m.id, m.score, m.meta);
  return (await evalScript(redis, script, [keys.orgQueue, keys.deviceQueue, keys.queueMeta], argv)) as number;
}
