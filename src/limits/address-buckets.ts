/**
 * A token bucket per client address, kept in this process: the limit in front of requests that
 * carry no credential and of failed authentications (docs/operations.md, "Before
 * authentication"). Cheap enough to run before anything else: no Redis, no Postgres. At most
 * `maxAddresses` buckets are kept; past that the one used longest ago goes (a full bucket, so
 * forgetting it only ever lets a request through).
 */
export class AddressBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly maxAddresses = 100_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes one token for `address`: 0 when there was one, else the milliseconds until there is. */
  take(address: string): number {
    const now = this.now();
    const b = this.buckets.get(address);
    let tokens = this.burst;
    if (b) {
      tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.ratePerSecond);
      this.buckets.delete(address); // re-inserted below: the map's order is the order of last use
    } else if (this.buckets.size >= this.maxAddresses) {
      this.buckets.delete(this.buckets.keys().next().value!);
    }
    const allowed = tokens >= 1;
    this.buckets.set(address, { tokens: allowed ? tokens - 1 : tokens, at: now });
    return allowed ? 0 : Math.ceil(((1 - tokens) / this.ratePerSecond) * 1000);
  }

  get size(): number {
    return this.buckets.size;
  }
}
