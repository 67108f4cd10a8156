/**
 * The time as the decisions that depend on it see it: the daily limit's day and its Retry-After,
 * a key's expiry and its request rate, a phone's pacing window. One per process; tests give a
 * process a clock they move, to cross midnight or a window without waiting for it.
 */
export interface Clock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
