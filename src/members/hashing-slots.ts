import { errors } from '../errors/errors.js';

/**
 * Bounds the scrypt work of a process. Each hash takes 32 MiB and tens of milliseconds of a libuv
 * thread (the pool of four that file and DNS work share), so a flood of password checks could
 * otherwise hold every thread and delay every other request. A few run at once, a few wait, and
 * past that a caller gets a fast 429 rather than a place in an unbounded queue.
 */
export class HashingSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) throw errors.rateLimited('too many password checks at once on this server; try again in a second', 1);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, so `running` never dips and lets a newcomer jump the queue.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** Two hashes at a time leave two of libuv's four threads for file and DNS work; eight may wait (about half a second). */
export const hashingSlots = new HashingSlots(2, 8);
