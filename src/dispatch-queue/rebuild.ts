import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { selectUndispatchedBatches } from '../messages/sql/select-undispatched-batches.js';
import { toDispatchEntry } from './entries.js';
import { enqueue } from './enqueue.js';
import { dispatchBatch } from './dispatch-batch.js';
import type { WorkSignals } from './work-signals.js';
import { scheduleBatches } from '../scheduling/schedule.js';
import { selectQueuedPage } from './sql/select-queued-page.js';
import { selectWaitingBatchMessages } from './sql/select-waiting-batch-messages.js';

/**
 * Batches committed but never put on the dispatch queues, or on the schedule (the API process
 * died, or Redis was down, between the commit and the enqueue). Idempotent: the enqueue skips
 * what is there.
 */
export async function reconcileBatches(ctx: Infrastructure, signals: WorkSignals): Promise<number> {
  let total = 0;
  for (;;) {
    const batchIds = await selectUndispatchedBatches(ctx.db, ctx.config.reconcileGraceMs, 50);
    if (batchIds.length === 0) return total;
    const messages = await selectWaitingBatchMessages(ctx.db, batchIds);
    // A scheduled batch goes on the schedule (src/scheduling/), which queues it when it is due.
    await scheduleBatches(ctx, [...new Map(messages.filter((m) => m.status === 'accepted' && m.sendAt).map((m) => [m.batchId!, { batchId: m.batchId!, sendAt: m.sendAt! }])).values()]);
    await dispatchBatch(
      ctx,
      signals,
      batchIds,
      messages.filter((m) => m.status === 'queued').map((r) => toDispatchEntry(r)),
    );
    total += messages.length;
    if (batchIds.length < 50) return total;
  }
}

/**
 * After Redis lost its data (flushed, restarted without AOF), the dispatch queues are rebuilt
 * from the queued messages in Postgres. The marker key says the queues are whole; its absence
 * triggers the rebuild. A message claimed in Redis just before the loss may be queued again:
 * the claim's conditional write in Postgres still lets only one phone have it.
 */
export async function rebuildQueuesIfLost(ctx: Infrastructure, signals: WorkSignals): Promise<number> {
  const marker = ctx.keys.queuesBuilt();
  if (await ctx.redis.exists(marker)) return 0;
  let after = '';
  let total = 0;
  for (;;) {
    const rows = await selectQueuedPage(ctx.db, after);
    if (rows.length === 0) break;
    const entries = rows.map((r) => toDispatchEntry(r));
    total += await enqueue(ctx, entries);
    // Phones idle since the loss claim only when told there is work.
    await signals.signal(entries);
    after = rows[rows.length - 1]!.id;
  }
  await ctx.redis.set(marker, new Date().toISOString());
  if (total > 0) ctx.log.warn({ total }, 'dispatch queues rebuilt from Postgres');
  return total;
}
