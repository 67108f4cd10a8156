import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { markBatchesDispatched } from '../messages/sql/mark-batches-dispatched.js';
import type { DispatchEntry } from './entries.js';
import { enqueue } from './enqueue.js';
import type { WorkSignals } from './work-signals.js';

/**
 * Puts a committed batch's queued messages on the Redis dispatch queues, then marks the batch
 * dispatched. In that order a crash between the two leaves the batch undispatched, and the
 * reconciler queues it again (the enqueue is idempotent, and a message queued twice is still
 * claimed once: Postgres moves it queued → claimed only once). Phones are woken as soon as the
 * messages are on the queues, while the mark is written.
 */
export async function dispatchBatch(ctx: Infrastructure, signals: WorkSignals, batchIds: string[], entries: DispatchEntry[]): Promise<void> {
  await enqueue(ctx, entries);
  await Promise.all([markBatchesDispatched(ctx.db, batchIds), signals.signal(entries)]);
}
