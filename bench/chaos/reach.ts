import type { ChaosLog } from './log.js';
import type { Withdrawal } from './server-view.js';

export interface Reach {
  /** From the moment the job was stuck to another phone's `jobs` frame carrying it, ms. */
  fromStuck: number[];
  /** From the withdrawal (the timeline event, server clock) to that frame, ms. */
  fromWithdrawal: number[];
  /** Withdrawals no other phone received afterwards. */
  notReached: Withdrawal[];
  /** Per timeline code (claim_timeout, phone_silent, phone_limited): its stuck → reached times. */
  byCode: Record<string, number[]>;
}

const latestAtOrBefore = (times: number[], t: number) => times.filter((x) => x <= t).reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);

/**
 * For each withdrawal: the next `jobs` frame that carried the message to another phone. The job
 * was stuck from the later of two moments: it reached the phone it left, and that phone stopped
 * (went silent, or Android refused it for the limit); a phone that never stopped leaves only the
 * first. Both clocks are this machine's when the server is local.
 */
export function reachTimes(withdrawals: Withdrawal[], log: ChaosLog, phoneOf: Map<string, number>): Reach {
  const reach: Reach = { fromStuck: [], fromWithdrawal: [], notReached: [], byCode: {} };
  for (const w of withdrawals) {
    const left = phoneOf.get(w.deviceId);
    const arrivals = log.arrivals.get(w.id) ?? [];
    const next = arrivals.filter(([phone, t]) => phone !== left && t >= w.at).sort((a, b) => a[1] - b[1])[0];
    if (!next) {
      reach.notReached.push(w);
      continue;
    }
    const reachedLeft = latestAtOrBefore(
      arrivals.filter(([phone]) => phone === left).map(([, t]) => t),
      w.at,
    );
    const stopped = left === undefined ? Number.NEGATIVE_INFINITY : latestAtOrBefore(log.stops.get(left) ?? [], w.at);
    const stuckSince = Math.max(reachedLeft, stopped);
    if (Number.isFinite(stuckSince)) {
      reach.fromStuck.push(next[1] - stuckSince);
      (reach.byCode[w.code] ??= []).push(next[1] - stuckSince);
    }
    reach.fromWithdrawal.push(next[1] - w.at);
  }
  return reach;
}
