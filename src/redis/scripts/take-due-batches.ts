import type { Redis } from '../client.js';
import { evalScript, luaScript } from './lua-scripts.js';

const script = luaScript('takeDueBatches');

export interface TakenBatch {
  batchId: string;
  sendAtMs: number;
  /** Its member in the moving set, to end the lease with. */
  member: string;
  /** Handed out before to a mover whose lease ran out. */
  recovered: boolean;
}

/** Due scheduled batches, leased to this mover (lua/takeDueBatches-2.lua). */
export async function takeDueBatches(redis: Redis, keys: { due: string; moving: string }, args: { now: number; max: number; leaseUntil: number }): Promise<TakenBatch[]> {
  const reply = (await evalScript(redis, script, [keys.due, keys.moving], [args.now, args.max, args.leaseUntil])) as (string | number)[];
  const taken: TakenBatch[] = [];
  for (let i = 0; i < reply.length; i += 2) {
    const member = String(reply[i]);
    const colon = member.lastIndexOf(':');
    taken.push({ batchId: member.slice(0, colon), sendAtMs: Number(member.slice(colon + 1)), member, recovered: Number(reply[i + 1]) === 1 });
  }
  return taken;
}
