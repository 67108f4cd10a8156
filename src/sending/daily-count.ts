import type { AppContext } from '../context/app-context.js';
import { countMessagesCreated } from '../messages/sql/count-messages-created.js';

export const dayStartMs = (utcDay: string) => Date.UTC(Number(utcDay.slice(0, 4)), Number(utcDay.slice(4, 6)) - 1, Number(utcDay.slice(6, 8)));

/** The messages Postgres holds for an organization's UTC day (yyyymmdd). */
export async function countDaysMessages(ctx: AppContext, orgId: string, utcDay: string): Promise<number> {
  const dayStart = dayStartMs(utcDay);
  return countMessagesCreated(ctx.db, orgId, dayStart, dayStart + 86_400_000);
}

/**
 * After Redis lost the day's counter, it is rebuilt from the messages Postgres holds for that
 * day. A send admitted before the loss and committing after this count is missing from it, so
 * the seed is counted again by the worker at recountAt, once such sends are over
 * (recountSeededCounters in reservations.ts).
 */
export async function seedDailyCount(ctx: AppContext, orgId: string, utcDay: string, recountAt: number): Promise<void> {
  const dailyKey = ctx.keys.org(orgId).dailyCount(utcDay);
  const n = await countDaysMessages(ctx, orgId, utcDay);
  const seeded = await ctx.redis.set(dailyKey, n, 'EX', 2 * 86_400, 'NX');
  if (seeded === 'OK') await ctx.redis.zadd(ctx.keys.dailyRecounts(), 'NX', recountAt, `${orgId}|${utcDay}`);
}
