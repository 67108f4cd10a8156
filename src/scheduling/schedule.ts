import type { Infrastructure } from '../infrastructure/infrastructure.js';

export interface ScheduledBatch {
  batchId: string;
  sendAt: Date;
}

/**
 * Puts batches on the Redis schedule, one member per batch (not per message): a million messages
 * due in one minute are two thousand members. Idempotent (the send, the reconciler, the rebuild
 * and the backstop may all add the same batch; the mover's conditional move makes a second pass
 * a no-op).
 */
export async function scheduleBatches(ctx: Infrastructure, batches: ScheduledBatch[]): Promise<void> {
  if (batches.length === 0) return;
  const args: (string | number)[] = [];
  for (const b of batches) args.push(b.sendAt.getTime(), b.batchId);
  await ctx.redis.zadd(ctx.keys.schedule().due, ...args);
}
