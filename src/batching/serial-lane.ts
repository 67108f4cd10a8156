/**
 * Work done off a hot path, one round after another: items added while a round runs are
 * gathered into the next round (at most `perRound` each), so a burst takes one connection at a
 * time instead of every connection of a pool. `run` must not throw (it logs and leaves the items
 * to a sweep); a round that throws anyway is dropped.
 */
export class SerialLane<T> {
  private pending: T[] = [];
  private running: Promise<void> | null = null;

  constructor(private readonly perRound: number) {}

  add(items: T[], run: (round: T[]) => Promise<void>): void {
    if (items.length === 0) return;
    this.pending.push(...items);
    this.running ??= this.drain(run);
  }

  /** Resolves once every item added so far went through a round (tests, shutdown). */
  async drained(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(run: (round: T[]) => Promise<void>): Promise<void> {
    while (this.pending.length > 0) await run(this.pending.splice(0, this.perRound)).catch(() => undefined);
    this.running = null;
  }
}
