/**
 * Merges the lookups that concurrent requests make in one turn of the event loop into one
 * round trip. uWS runs every request that arrived in one poll in its own callback; a batch
 * flushed on setImmediate gathers all of them, so under load one Redis or Postgres write (and
 * one syscall) serves dozens of requests, and when idle it adds no measurable delay.
 *
 * With `maxInFlight`, a turn whose predecessors' batches are all still running does not send its
 * own: lookups keep gathering until one comes back (group commit). Under load the batches grow by
 * themselves instead of the round trips multiplying; at low load nothing waits.
 *
 * `gather` chooses how long a batch stays open before it is sent. The default, the rest of this
 * turn, is for request handlers: uWS runs a whole poll's requests before setImmediate callbacks.
 * `queueMicrotask` closes it as soon as the current callback's promise jobs are done, for callers
 * that never arrive together in one turn anyway (webhook jobs each resume from their own socket
 * read) and whose batches come from maxInFlight alone, without waiting for the turn to end.
 */
export class TickBatcher<K, V> {
  private keys: K[] = [];
  private waiters: { resolve: (v: V) => void; reject: (e: unknown) => void }[] = [];
  private scheduled = false;
  private inFlight = 0;

  constructor(
    private readonly run: (keys: K[]) => Promise<V[]>,
    private readonly maxBatch = 256,
    private readonly maxInFlight = Infinity,
    private readonly gather: (flush: () => void) => void = restOfTurn,
  ) {}

  load(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      this.keys.push(key);
      this.waiters.push({ resolve, reject });
      if (this.keys.length >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        this.gather(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.keys.length > 0 && this.inFlight < this.maxInFlight) this.send(this.keys.splice(0, this.maxBatch));
  }

  private send(keys: K[]): void {
    const waiters = this.waiters.splice(0, keys.length);
    this.inFlight++;
    this.run(keys)
      .then(
        (values) => waiters.forEach((w, i) => w.resolve(values[i]!)),
        (err: unknown) => waiters.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        this.inFlight--;
        if (!this.scheduled) this.flush();
      });
  }
}

function restOfTurn(flush: () => void): void {
  setImmediate(flush);
}
