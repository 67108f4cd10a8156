/**
 * Merges the lookups that concurrent requests make in one turn of the event loop into one
 * round trip. uWS runs every request that arrived in one poll in its own callback; a batch
 * flushed on setImmediate gathers all of them, so under load one Redis or Postgres write (and
 * one syscall) serves dozens of requests, and when idle it adds no measurable delay.
 */
export class TickBatcher<K, V> {
  private keys: K[] = [];
  private waiters: { resolve: (v: V) => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;

  constructor(
    private readonly run: (keys: K[]) => Promise<V[]>,
    private readonly maxBatch = 256,
  ) {}

  load(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      this.keys.push(key);
      this.waiters.push({ resolve, reject });
      if (this.keys.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const keys = this.keys;
    const waiters = this.waiters;
    if (keys.length === 0) return;
    this.keys = [];
    this.waiters = [];
    this.run(keys).then(
      (values) => waiters.forEach((w, i) => w.resolve(values[i]!)),
      (err: unknown) => waiters.forEach((w) => w.reject(err)),
    );
  }
}
