import { errors } from '../errors/errors.js';

/** How long a tenant still counts among the running ones after its last request ended. */
const LINGER_MS = 250;

/**
 * A bulkhead per tenant (an organization, or a phone on its HTTP routes): at most `limit` of its
 * requests are handled at once by this process, up to `queue` more wait, and past that it gets a
 * fast 429 with Retry-After (docs/operations.md, "Bulkheads"). What one tenant queues waits in
 * its own line, not in the Postgres pool's, where every other tenant's request would wait
 * behind it.
 *
 * With `fairShare`, a tenant alone may run up to `limit`, but while others have run requests
 * within the last 250 ms too, each may run at most its share of `fairShare` (the Postgres pool's
 * size): two organizations sending at once run up to 10 requests each with a pool of 20, so
 * neither waits in the pool's line behind the other's. The 250 ms keep a tenant that sends one
 * request at a time counted between its requests; without them the other took all it could in
 * each gap and kept it. With 2 s, a tenant taking over from another (the bench's key rotation)
 * ran capped for 2 s after the other's last request: POST p99 at 64 connections 540–620 →
 * 820–880 ms; with 250 ms, 680–710 against 610–660 in the same runs. A tenant past its share
 * when another arrives keeps what it runs; its next requests wait until it is back under its
 * share.
 */
export class Bulkhead {
  private readonly lanes = new Map<string, { running: number; waiting: (() => void)[] }>();
  /** Lanes with nothing running, by when they went idle (oldest first): dropped after LINGER_MS. */
  private readonly idle = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly queue: number,
    /** The error a tenant gets when its line is full (counted, logged, by the caller). */
    private readonly refusal: (key: string) => Error = () => errors.rateLimited('too many requests of this organization in progress on this server; retry shortly', 1),
    private readonly fairShare?: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** What one tenant may run now: `limit` alone, its share of `fairShare` beside others. */
  private allowance(): number {
    if (this.fairShare === undefined || this.lanes.size <= 1) return this.limit;
    return Math.min(this.limit, Math.max(2, Math.floor(this.fairShare / this.lanes.size)));
  }

  /** A slot at once (its release), or null when the tenant runs its allowance. No await on the common path. */
  tryEnter(key: string): (() => void) | null {
    if (this.idle.size > 0) this.dropIdle();
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = { running: 0, waiting: [] }));
    if (lane.running >= this.allowance()) return null;
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

  /** Tenants counted now (running, or idle for less than LINGER_MS). */
  get tenants(): number {
    this.dropIdle();
    return this.lanes.size;
  }

  private release(key: string): void {
    const lane = this.lanes.get(key)!;
    lane.running--;
    // Taken synchronously for the next in line: a newcomer's tryEnter cannot take the slot first.
    const allowed = this.allowance();
    while (lane.waiting.length > 0 && lane.running < allowed) {
      lane.running++;
      lane.waiting.shift()!();
    }
    if (lane.running > 0) return;
    if (this.fairShare === undefined) {
      this.lanes.delete(key);
      return;
    }
    this.idle.delete(key); // re-inserted last: the map's order is the order lanes went idle
    this.idle.set(key, this.now());
  }

  private dropIdle(): void {
    const cutoff = this.now() - LINGER_MS;
    for (const [key, since] of this.idle) {
      if (since > cutoff) break;
      this.idle.delete(key);
      if (this.lanes.get(key)?.running === 0) this.lanes.delete(key);
    }
  }
}
