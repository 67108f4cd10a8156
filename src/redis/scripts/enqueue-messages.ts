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

/**
 * Queues messages on the device's queue or the organization's (lua/enqueueMessages-3.lua); answers
 * how many were newly queued. Ids, scores and dispatch JSON go one per line (the script's header
 * says why); a meta with a line break in it would shift every message after it, so it is refused.
 */
export async function enqueueMessages(redis: Redis, keys: EnqueueMessagesKeys, args: { pinnedToDevice: boolean; messages: readonly QueuedMessage[] }): Promise<number> {
  const { messages } = args;
  if (messages.length === 0) return 0;
  let ids = '';
  let scores = '';
  let metas = '';
  for (let i = 0; i < messages.length; i += 1) {
    const m = messages[i]!;
    if (m.meta.includes('\n')) throw new Error(`enqueueMessages: the dispatch JSON of ${m.id} holds a line break`);
    const sep = i === 0 ? '' : '\n';
    ids += sep + m.id;
    scores += sep + m.score;
    metas += sep + m.meta;
  }
  const argv: LuaArg[] = [args.pinnedToDevice ? 1 : 0, ids, scores, metas];
  return (await evalScript(redis, script, [keys.orgQueue, keys.deviceQueue, keys.queueMeta], argv)) as number;
}
