import type { Redis } from '../client.js';
import { evalScript, luaScript } from './lua-scripts.js';

const script = luaScript('releaseSend');

export interface ReleaseSendKeys {
  /** The idempotency record, or the organization's placeholder key. */
  idempotency: string;
  dailyCount: string;
  reservations: string;
}

export interface ReleaseSendArgs {
  /** `<batchId>:<count>[:<key>]` */
  reservation: string;
  count: number;
  batchId: string;
  /** refund: give the count back; drop: the count stands (the key's batch committed); keep: leave it to the reconciler. */
  mode: 'refund' | 'drop' | 'keep';
}

/** Releases a send's admission (lua/releaseSend-3.lua); answers whether its count was refunded. */
export async function releaseSend(redis: Redis, keys: ReleaseSendKeys, args: ReleaseSendArgs): Promise<boolean> {
  const refunded = await evalScript(redis, script, [keys.idempotency, keys.dailyCount, keys.reservations], [args.reservation, args.count, args.batchId, args.mode]);
  return refunded === 1;
}
