/**
 * Group commit: calls arriving while a flush runs are collected and go together in the next one.
 * At low load each call is flushed at once (no timer, no added latency); under load the batches
 * grow by themselves, so one Postgres round trip serves many deliveries.
 */
export function batched<I, O>(run: (items: I[]) => Promise<O[]>, opts: { maxItems: number; maxConcurrent: number }): (item: I) => Promise<O> {
  let waiting: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  let running = 0;
  const flush = (): void => {
    if (running >= opts.maxConcurrent || waiting.length === 0) return;
    const batch = waiting.slice(0, opts.maxItems);
    waiting = waiting.slice(batch.length);
    running++;
    run(batch.map((w) => w.item))
      .then(
        (out) => batch.forEach((w, i) => w.resolve(out[i] as O)),
        (err: unknown) => batch.forEach((w) => w.reject(err)),
      )
      .finally(() => {
        running--;
        flush();
      });
  };
  return (item) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      queueMicrotask(flush);
    });
}
