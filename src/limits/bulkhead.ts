import { errors } from '../errors/errors.js';

/**
 * A bulkhead per tenant (an organization, or a phone on its HTTP routes): at most `limit` of its
 * requests are handled at once by this process, up to `queue` more wait, and past that it gets a
 * fast 429 with Retry-After (docs/operations.md, "Bulkheads"). What one tenant queues waits in
 * its own line, not in the Postgres pool's, where every other tenant's request would wait
 * behind it.
 */
export class Bulkhead {
  private readonly lanes = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(
    private readonly limit: number,
    private readonly queue: number,
    /** The error a tenant gets when its line is full (counted, logged, by the caller). */
    private readonly refusal: (key: string) => Error = () => errors.rateLimited('too many requests of this organization in progress on this server; retry shortly', 1),
  ) {}

  /** A slot at once (its release), or null when the tenant has `limit` running. No await on the common path. */
  tryEnter(key: string): (() => void) | null {
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = { running: 0, waiting: [] }));
    if (lane.running >= this.limit) return null;
    lane.running++;
    return () => this.release(key);
  }

  /** Waits for a slot of `key`, or throws the refusal when its line is full. */
  async enter(key: string): Promise<() => void> {
    const now = this.tryEnter(key);
    if (now) return now;
    const lane = this.lanes.get(key)!;
    if (lane.waiting.length >= this.queue) throw this.refusal(key);
    await new Promise<void>((resolve) => lane.waiting.push(resolve));
    return () => this.release(key);
  }

  private release(key: string): void {
    const lane = this.lanes.get(key)!;
    // The slot passes straight to the next in line: `running` never dips for a newcomer to take it.
    const next = lane.waiting.shift();
    if (next) return next();
    if (--lane.running === 0) this.lanes.delete(key);
  }
}
