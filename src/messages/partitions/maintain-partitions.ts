import type { Infrastructure } from '../../infrastructure/infrastructure.js';
import type { Db, Queryable } from '../../db/pool.js';
import { idFloor } from '../../ids/ids.js';
import { every, type Periodic } from '../../periodic/every.js';
import { createPartitions } from './sql/create-partitions.js';
import { withPartitionUpkeepLock } from './sql/partition-upkeep-lock.js';
import { detachPartition, dropDetachedTable } from './sql/drop-partition.js';
import { partitionHoldsLiveMessages } from './sql/partition-holds-live-messages.js';
import { selectDetachedPartitions, selectPartitions } from './sql/select-partitions.js';

/** The current month and this many after it always have their partitions. */
export const MONTHS_AHEAD = 3;
/** Months come once a month; an hour between passes leaves weeks of slack for any failure. */
const MAINTENANCE_INTERVAL_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Makes the partitions of the month of `now` and of the MONTHS_AHEAD after it, those missing. */
export function createPartitionsAhead(db: Db, now: Date): Promise<number> {
  return createPartitions(db, now, MONTHS_AHEAD + 1);
}

/**
 * Retention (HAFATRA_MESSAGE_RETENTION_DAYS): each month of messages, with its timelines and
 * recipient rows, whose every id is older than the window is detached and dropped whole; no row
 * is deleted. A month still holding a message not yet final (queued, scheduled, in a phone's
 * hands) stays, as do the timeline and recipient months of a kept message month. Tables a dead
 * pass left detached are dropped first. One pass at a time across workers: while another holds
 * the upkeep lock this returns [] at once. Returns the message months dropped.
 */
export async function dropExpiredPartitions(db: Db, now: Date, retentionDays: number): Promise<string[]> {
  return (await withPartitionUpkeepLock(db, (client) => dropExpired(client, now, retentionDays))) ?? [];
}

async function dropExpired(db: Queryable, now: Date, retentionDays: number): Promise<string[]> {
  for (const name of await selectDetachedPartitions(db)) await dropDetachedTable(db, name);
  const cutoff = idFloor('message', now.getTime() - retentionDays * DAY_MS);
  const partitions = await selectPartitions(db);
  const expired = partitions.filter((p) => p.upperBound !== null && p.upperBound <= cutoff);
  const dropped: string[] = [];
  for (const month of expired.filter((p) => p.table === 'messages')) {
    if (!month.detachPending && (await partitionHoldsLiveMessages(db, month.name))) continue;
    // Its timelines and recipient rows go with it: the partitions of the same bounds.
    const beside = expired.filter((p) => p.table !== 'messages' && p.upperBound === month.upperBound);
    for (const p of [month, ...beside]) {
      await detachPartition(db, p.table, p.name, p.detachPending);
      await dropDetachedTable(db, p.name);
    }
    dropped.push(month.name);
  }
  return dropped;
}

/** The worker's partition upkeep: at start, then hourly. `monthsDropped`: their messages are gone. */
export function startPartitionMaintenance(ctx: Infrastructure, monthsDropped: () => void): Periodic {
  const task = every(MAINTENANCE_INTERVAL_MS, 'message-partitions', ctx, async () => {
    const now = new Date(ctx.clock.now());
    const made = await createPartitionsAhead(ctx.db, now);
    if (made > 0) ctx.log.info({ months: made }, 'message partitions created ahead');
    if (ctx.config.messageRetentionDays === null) return;
    const dropped = await dropExpiredPartitions(ctx.db, now, ctx.config.messageRetentionDays);
    if (dropped.length === 0) return;
    ctx.log.info({ partitions: dropped }, 'message months past retention dropped');
    monthsDropped();
  });
  void task.runNow();
  return task;
}
