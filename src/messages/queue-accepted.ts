import type { AppContext } from '../context/app-context.js';
import { dispatchMeta, enqueueMixed, type DispatchEntry } from './dispatch-queue.js';
import { applyTransitions, type Changed } from './transitions.js';
import { markBatchesDispatched } from './sql/batches.js';
import type { MessageEvent, MessageRow } from './message.js';
import { signalWork } from '../dispatch/work-signals.js';

export const toDispatchEntry = (m: MessageRow): DispatchEntry => ({
  id: m.id,
  orgId: m.orgId,
  requestedDeviceId: m.requestedDeviceId,
  score: m.createdAt.getTime(),
  meta: dispatchMeta(m.to, { ...m, expiresAt: m.expiresAt.getTime() }),
});

/**
 * Puts a committed batch's queued messages on the Redis dispatch queues, then marks the batch
 * dispatched. In that order a crash between the two leaves the batch undispatched, and the
 * reconciler queues it again (the enqueue is idempotent, and a message queued twice is still
 * claimed once: Postgres moves it queued → claimed only once). Phones are woken as soon as the
 * messages are on the queues, while the mark is written.
 */
export async function dispatchBatch(ctx: AppContext, batchIds: string[], entries: DispatchEntry[]): Promise<void> {
  await enqueueMixed(ctx, entries);
  await Promise.all([markBatchesDispatched(ctx.db, batchIds), signalWork(ctx, entries)]);
}

/** accepted → queued, for messages written `accepted` (by an older version): queue, then record. */
export async function queueAccepted(ctx: AppContext, messages: MessageRow[], source: MessageEvent['source']): Promise<Changed[]> {
  if (messages.length === 0) return [];
  await enqueueMixed(ctx, messages.map(toDispatchEntry));
  const at = new Date();
  const changed = await applyTransitions(ctx.db, messages.map((m) => ({ id: m.id, to: 'queued' as const, at, source })));
  await signalWork(ctx, messages);
  return changed;
}
