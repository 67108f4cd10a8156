import type { AppContext } from '../context/app-context.js';
import { MESSAGE_COLUMNS, type MessageRow } from './message.js';
import { queueAccepted, toDispatchEntry } from './queue-accepted.js';
import { enqueueMixed } from './dispatch-queue.js';
import { dispatchBatch } from './queue-accepted.js';
import { selectUndispatchedBatches } from './sql/batches.js';

const BATCH = 500;

/**
 * Batches committed but never put on the dispatch queues (the API process died, or Redis was
 * down, between the commit and the enqueue). Idempotent: the enqueue skips what is there.
 */
export async function reconcileBatches(ctx: AppContext): Promise<number> {
  let total = 0;
  for (;;) {
    const batchIds = await selectUndispatchedBatches(ctx.db, ctx.config.reconcileGraceMs, 50);
    if (batchIds.length === 0) return total;
    const { rows } = await ctx.db.query(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE batch_id = ANY($1::text[]) AND status = 'queued'`,
      [batchIds],
    );
    await dispatchBatch(ctx, batchIds, (rows as MessageRow[]).map(toDispatchEntry));
    total += rows.length;
    if (batchIds.length < 50) return total;
  }
}

/**
 * accepted → queued for messages a crash or a Redis outage left behind: the send request
 * committed them (its client got a 202) but never queued them. Idempotent, so it can run on
 * every worker at once.
 */
export async function reconcileAccepted(ctx: AppContext): Promise<number> {
  let total = 0;
  for (;;) {
    const { rows } = await ctx.db.query(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE status = 'accepted' AND created_at < now() - $1 * interval '1 millisecond'
       ORDER BY created_at LIMIT ${BATCH}`,
      [ctx.config.reconcileGraceMs],
    );
    if (rows.length === 0) return total;
    const changed = await queueAccepted(ctx, rows as MessageRow[], 'system');
    total += changed.length;
    if (rows.length < BATCH || changed.length === 0) return total;
  }
}

/**
 * After Redis lost its data (flushed, restarted without AOF), the dispatch queues are rebuilt
 * from the queued messages in Postgres. The marker key says the queues are whole; its absence
 * triggers the rebuild. A message claimed in Redis just before the loss may be queued again:
 * the claim's conditional write in Postgres still lets only one phone have it.
 */
export async function rebuildQueuesIfLost(ctx: AppContext): Promise<number> {
  const marker = ctx.keys.queuesBuilt();
  if (await ctx.redis.exists(marker)) return 0;
  let after = '';
  let total = 0;
  for (;;) {
    const { rows } = await ctx.db.query(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE status = 'queued' AND id > $1 ORDER BY id LIMIT 5000`,
      [after],
    );
    if (rows.length === 0) break;
    total += await enqueueMixed(ctx, (rows as MessageRow[]).map(toDispatchEntry));
    after = (rows[rows.length - 1] as MessageRow).id;
  }
  await ctx.redis.set(marker, new Date().toISOString());
  if (total > 0) ctx.log.warn({ total }, 'dispatch queues rebuilt from Postgres');
  return total;
}
