import type { AppContext } from '../context/app-context.js';
import { idFloor } from '../ids/ids.js';
import { MESSAGE_STATUSES } from './schemas.js';

export const dayStartMs = (utcDay: string) => Date.UTC(Number(utcDay.slice(0, 4)), Number(utcDay.slice(4, 6)) - 1, Number(utcDay.slice(6, 8)));

/** The messages Postgres holds for an organization's UTC day (yyyymmdd). */
export async function countDaysMessages(ctx: AppContext, orgId: string, utcDay: string): Promise<number> {
  const dayStart = dayStartMs(utcDay);
  // Ids are time-sortable: "created that day" is an id range of each status's part of the
  // (org_id, status, id) index, which the status list lets Postgres read range by range.
  const { rows } = await ctx.db.query(
    'SELECT count(*)::int AS n FROM messages WHERE org_id = $1 AND status = ANY($4::text[]) AND id >= $2 AND id < $3',
    [orgId, idFloor('message', dayStart), idFloor('message', dayStart + 86_400_000), MESSAGE_STATUSES],
  );
  return rows[0].n as number;
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
