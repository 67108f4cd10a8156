import type { ChaosBatch } from '../phones/protocol.js';

/** Everything the chaos phones recorded, gathered in the bench process as batches arrive. */
export class ChaosLog {
  /** messageId → every [phone, ms] a `jobs` frame carried it to. */
  readonly arrivals = new Map<string, Array<[number, number]>>();
  /** messageId → how many times a phone handed it to Android (more than once: sent twice). */
  readonly handedOver = new Map<string, number>();
  /** messageId → when its first final report (sent or failed) was acknowledged. */
  readonly finalAt = new Map<string, number>();
  readonly deliveredAt = new Map<string, number>();
  readonly failed = new Set<string>();
  /** phone → the moments it went silent or was refused for the limit. */
  readonly stops = new Map<number, number[]>();
  refused = 0;
  readonly ackedAfterWithdrawn: Array<[string, number]> = [];

  add(b: ChaosBatch): void {
    for (const [id, phone, t] of b.arrivals) {
      const list = this.arrivals.get(id);
      if (list) list.push([phone, t]);
      else this.arrivals.set(id, [[phone, t]]);
    }
    for (const [id] of b.radio) this.handedOver.set(id, (this.handedOver.get(id) ?? 0) + 1);
    for (const [id, , t, status] of b.finals) {
      if (status === 'delivered') this.deliveredAt.set(id, t);
      else if (!this.finalAt.has(id)) this.finalAt.set(id, t);
      if (status === 'failed') this.failed.add(id);
    }
    for (const [phone, t] of b.stops) this.stops.set(phone, [...(this.stops.get(phone) ?? []), t]);
    this.refused += b.refused;
    this.ackedAfterWithdrawn.push(...b.ackedAfterWithdrawn);
  }

  /** Messages two phones (or one phone twice) handed to Android. */
  sentTwice(): string[] {
    return [...this.handedOver].filter(([, n]) => n > 1).map(([id]) => id);
  }

  /** Messages that reached more than one phone: the candidates for a withdrawal. */
  movedIds(): string[] {
    return [...this.arrivals].filter(([, list]) => new Set(list.map(([phone]) => phone)).size > 1).map(([id]) => id);
  }
}
