import type { Redis } from '../client.js';
import { evalScript, luaScript, unexpectedReply } from './lua-scripts.js';

const script = luaScript('admitSend');

/** The first element of lua/admitSend-3.lua's reply. */
export const AdmitSendCode = {
  admitted: 1,
  replay: 2,
  /** A stale pending key taken over; its reservation was settled already, so counted anew. */
  takenOverCountedAnew: 3,
  /** A stale pending key taken over, inheriting its reservation: the counter did not move. */
  takenOverInherited: 4,
  requestMismatch: -1,
  stillInFlight: -2,
  dailyLimitReached: -3,
  counterMissing: -4,
} as const;

export interface AdmitSendKeys {
  /** The idempotency record, or a placeholder key of the same organization without one. */
  idempotency: string;
  /** The organization's daily counter for the current UTC day. */
  dailyCount: string;
  reservations: string;
}

export interface AdmitSendArgs {
  /** Empty or absent: the request carries no idempotency key. */
  idempotencyKey?: string;
  requestHash: string;
  count: number;
  dailyLimit: number;
  pendingTtlSeconds: number;
  now: number;
  takeoverAfterMs: number;
  batchId: string;
}

export type AdmitSendResult =
  /** countToday: the day's count after this request (null only if the counter vanished under an inherited takeover). */
  | { kind: 'admitted'; takeover: 'none' | 'countedAnew' | 'inherited'; countToday: number | null }
  | { kind: 'replay'; responseJson: string }
  /** The idempotency key was used with a different request. */
  | { kind: 'requestMismatch' }
  /** The key's first request is still being processed. */
  | { kind: 'stillInFlight' }
  | { kind: 'dailyLimitReached'; countToday: number }
  /** The daily counter is not in Redis: seed it from Postgres and call again. */
  | { kind: 'counterMissing' };

const count = (payload: string) => (payload === '' ? null : Number(payload));

/** Idempotency replay or conflict, then the daily limit, in one atomic step (lua/admitSend-3.lua). */
export async function admitSend(redis: Redis, keys: AdmitSendKeys, args: AdmitSendArgs): Promise<AdmitSendResult> {
  const reply = (await evalScript(
    redis,
    script,
    [keys.idempotency, keys.dailyCount, keys.reservations],
    [args.idempotencyKey !== undefined ? 1 : 0, args.requestHash, args.count, args.dailyLimit, args.pendingTtlSeconds, args.now, args.takeoverAfterMs, args.batchId, args.idempotencyKey ?? ''],
  )) as [number, string];
  const [code, payload] = reply;
  switch (code) {
    case AdmitSendCode.admitted:
      return { kind: 'admitted', takeover: 'none', countToday: count(payload) };
    case AdmitSendCode.takenOverCountedAnew:
      return { kind: 'admitted', takeover: 'countedAnew', countToday: count(payload) };
    case AdmitSendCode.takenOverInherited:
      return { kind: 'admitted', takeover: 'inherited', countToday: count(payload) };
    case AdmitSendCode.replay:
      return { kind: 'replay', responseJson: payload };
    case AdmitSendCode.requestMismatch:
      return { kind: 'requestMismatch' };
    case AdmitSendCode.stillInFlight:
      return { kind: 'stillInFlight' };
    case AdmitSendCode.dailyLimitReached:
      return { kind: 'dailyLimitReached', countToday: Number(payload) };
    case AdmitSendCode.counterMissing:
      return { kind: 'counterMissing' };
    default:
      throw unexpectedReply(script, reply);
  }
}
