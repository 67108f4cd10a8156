import type { DeliveryStatus } from '../schemas.js';

export interface AttemptOutcome {
  status: Exclude<DeliveryStatus, 'pending'>;
  nextAttemptAt: Date | null;
}

/**
 * schedule[i] is the delay before attempt i + 1 (schedule[0] before the first one); after the
 * last attempt fails the delivery is dead.
 */
export function outcomeOfAttempt(ok: boolean, attemptsMade: number, schedule: readonly number[], finishedAt: Date): AttemptOutcome {
  if (ok) return { status: 'delivered', nextAttemptAt: null };
  const delaySeconds = schedule[attemptsMade];
  if (delaySeconds === undefined) return { status: 'dead', nextAttemptAt: null };
  return { status: 'retrying', nextAttemptAt: new Date(finishedAt.getTime() + delaySeconds * 1000) };
}
