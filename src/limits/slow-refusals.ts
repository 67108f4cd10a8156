import { AddressBuckets } from './address-buckets.js';

/** How one refusal is answered: at once, after `ms`, or by closing the connection unanswered. */
export type RefusalPace = { kind: 'now' } | { kind: 'hold'; ms: number } | { kind: 'close' };

/**
 * Refusals of a client that keeps asking after it was told to wait (docs/operations.md,
 * "Clients that ignore Retry-After"). Answering a flood's refusals at once only invites the next
 * request: a client looping without pause on 64 connections got ~8,000 refusals a second, each
 * one parsed and answered by the same event loop as every other tenant's requests. Past a grace
 * of refusals per client, a refusal is held up to `delayMs` (never past its Retry-After) before
 * it is answered, so a client that waits for its answers slows down to its connections per
 * delay. At most `maxHeld` refusals are held at once in the process; past that, the connection
 * of the refused request is closed unanswered, which a client that does not wait for answers
 * has no use for anyway. Decided in the process, without Redis or Postgres.
 */
export class SlowRefusals {
  private readonly grace: AddressBuckets;
  private heldNow = 0;

  constructor(
    private readonly o: { graceRefusals: number; delayMs: number; maxHeld: number },
    now?: () => number,
  ) {
    // The grace refills over 10 s: a client refused now and then is always answered at once.
    this.grace = new AddressBuckets(o.graceRefusals / 10, o.graceRefusals, 100_000, now);
  }

  /** How to answer a refusal of `client` (an organization, or an address) whose Retry-After is `retryAfterMs`. */
  pace(client: string, retryAfterMs: number): RefusalPace {
    if (this.o.delayMs === 0 || this.grace.take(client) === 0) return { kind: 'now' };
    if (this.heldNow >= this.o.maxHeld) return { kind: 'close' };
    return { kind: 'hold', ms: Math.min(this.o.delayMs, retryAfterMs) };
  }

  /** Waits out a hold, counted among the held refusals meanwhile. */
  async hold(ms: number): Promise<void> {
    this.heldNow++;
    try {
      await new Promise((resolve) => setTimeout(resolve, ms));
    } finally {
      this.heldNow--;
    }
  }

  /** Refusals being held now. */
  get held(): number {
    return this.heldNow;
  }
}
