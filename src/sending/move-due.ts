import type { AppContext } from '../context/app-context.js';
import { toDispatchEntry, type DispatchEntry } from '../dispatch-queue/entries.js';
import { selectMessagesByIds } from '../messages/sql/select-messages-by-ids.js';
import { applyTransitions, type Transition } from '../messages/transitions.js';
import { takeDueBatches, type TakenBatch } from '../redis/scripts/take-due-batches.js';
import { selectScheduledMessages } from '../scheduling/sql/select-scheduled-messages.js';
import { countStatusChanges } from '../infrastructure/metrics.js';

export const SCHEDULE_TIMING = {
  /** How often the worker looks for due batches: a message is queued at most this late, plus its move. */
  tickMs: 1_000,
  /** Batches one move takes: up to 10,000 messages in one statement. */
  batchesPerMove: 20,
  /** Moves running side by side in one process, so Postgres works while Redis answers and back. */
  parallelMoves: 4,
  /** A mover that has not finished a move in this time died: its batches are handed out again. */
  leaseMs: 60_000,
} as const;

/**
 * Queues every scheduled batch that is due: takes up to batchesPerMove of them from the Redis
 * schedule (lua/takeDueBatches-2.lua: no two movers take one batch), moves their messages
 * `accepted → queued` in one statement with their timeline entries and `message.queued` webhook
 * events (src/messages/transitions.ts; conditional, so a cancelled message stays cancelled and a
 * second move changes nothing), puts them on the dispatch queues, and only then ends the lease.
 * A message due past its expiry goes `accepted → expired` instead. Runs until nothing is due;
 * returns how many messages it queued or expired.
 */
export async function moveDueBatches(ctx: AppContext, opts: { parallel?: number } = {}): Promise<number> {
  let total = 0;
  const lane = async () => {
    for (;;) {
      const now = ctx.clock.now();
      const taken = await takeDueBatches(ctx.redis, ctx.keys.schedule(), { now, max: SCHEDULE_TIMING.batchesPerMove, leaseUntil: now + SCHEDULE_TIMING.leaseMs });
      if (taken.length === 0) return;
      const recovered = taken.filter((t) => t.recovered).length;
      if (recovered > 0) ctx.log.warn({ recovered }, 'scheduled batches taken again: their mover did not finish within its lease');
      const moved = await moveBatches(ctx, taken, now);
      total += moved;
      await ctx.redis.zrem(ctx.keys.schedule().moving, ...taken.map((t) => t.member));
      if (taken.length < SCHEDULE_TIMING.batchesPerMove) return;
    }
  };
  await Promise.all(Array.from({ length: opts.parallel ?? SCHEDULE_TIMING.parallelMoves }, lane));
  return total;
}

async function moveBatches(ctx: AppContext, taken: TakenBatch[], now: number): Promise<number> {
  const messages = await selectScheduledMessages(
    ctx.db,
    taken.map((t) => ({ batchId: t.batchId, sendAt: new Date(t.sendAtMs) })),
  );
  const at = new Date(now);
  const transitions: Transition[] = [];
  const queuedBefore: string[] = [];
  for (const m of messages) {
    if (m.status === 'queued') queuedBefore.push(m.id);
    else if (m.expiresAt.getTime() <= now) transitions.push({ id: m.id, to: 'expired', from: ['accepted'], at, source: 'system', code: 'expired' });
    else transitions.push({ id: m.id, to: 'queued', from: ['accepted'], at, source: 'system', code: 'scheduled' });
  }
  const changed = await applyTransitions(ctx.db, ctx.changes, transitions);
  countStatusChanges(ctx.metrics, changed);
  const entries: DispatchEntry[] = changed.filter((m) => m.status === 'queued').map((m) => toDispatchEntry(m));
  // Queued by a mover that died before its enqueue (only a batch whose lease ran out has any):
  // the enqueue is idempotent, and a claim in Postgres still decides who sends it.
  if (queuedBefore.length > 0) for (const m of await selectMessagesByIds(ctx.db, queuedBefore)) if (m.status === 'queued') entries.push(toDispatchEntry(m));
  if (entries.length > 0)
    await ctx.dispatch.dispatchBatch(
      taken.map((t) => t.batchId),
      entries,
    );
  return changed.length;
}
