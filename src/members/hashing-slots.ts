import { errors } from '../errors/errors.js';
import { Bulkhead } from '../limits/bulkhead.js';

/**
 * Bounds the scrypt work of a process. Each hash takes 32 MiB and tens of milliseconds of a libuv
 * thread (the pool of four that file and DNS work share), so a flood of password checks could
 * otherwise hold every thread and delay every other request. Two run at once, leaving two threads
 * for file and DNS work; eight may wait (about half a second); past that a caller gets a fast 429
 * rather than a place in an unbounded queue.
 */
const slots = new Bulkhead(2, 8, () => errors.rateLimited('too many password checks at once on this server; try again in a second', 1));

export async function withHashingSlot<T>(work: () => Promise<T>): Promise<T> {
  const release = slots.tryEnter('scrypt') ?? (await slots.enter('scrypt'));
  try {
    return await work();
  } finally {
    release();
  }
}
