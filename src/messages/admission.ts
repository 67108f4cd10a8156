import type { AppContext } from '../app/context.js';
import { errors } from '../errors/errors.js';
import { runScript } from '../redis/scripts.js';
import { secondsToNextUtcDay, utcDay } from '../redis/keys.js';
import { idFloor } from '../ids/ids.js';
import { MESSAGE_STATUSES } from './schemas.js';

/**
 * A send request's admission (lua/admitSend-2.lua): idempotency replay or conflict, then the
 * daily limit, in one atomic step. An admitted request either completes (its response is stored
 * for replays) or is released (its count refunded, its key freed) when it fails before its
 * messages were committed.
 */
const IDEMPOTENCY_TTL_SECONDS = 86_400;
const PENDING_TTL_SECONDS = 120;

export type Admission =
  | { kind: 'replay'; responseJson: string }
  | { kind: 'admitted'; complete(responseJson: string): Promise<void>; release(): Promise<void> };

export async function admitSend(
  ctx: AppContext,
  q: { orgId: string; dailyLimit: number; idempotencyKey?: string; requestHash: string; count: number },
): Promise<Admission> {
  const k = ctx.keys.org(q.orgId);
  const day = utcDay();
  const idemKey = k.idempotency(q.idempotencyKey ?? '-');
  const dailyKey = k.dailyCount(day);
  const useKey = q.idempotencyKey !== undefined;
  const run = () =>
    runScript<[number, string]>(ctx.redis, 'admitSend', [idemKey, dailyKey], [
      useKey ? 1 : 0, q.requestHash, q.count, q.dailyLimit, PENDING_TTL_SECONDS,
    ]);

  let [code, payload] = await run();
  if (code === -4) {
    await seedDailyCount(ctx, q.orgId, dailyKey);
    [code, payload] = await run();
  }
  if (code === 2) return { kind: 'replay', responseJson: payload };
  if (code === -1) throw errors.conflict('this idempotency-key was already used with a different request');
  if (code === -2) throw errors.conflict('a request with this idempotency-key is still being processed; retry shortly');
  if (code === -3) {
    throw errors.rateLimited(
      `daily message limit of ${q.dailyLimit} reached (${payload} sent today, ${q.count} more requested); it resets at 00:00 UTC`,
      secondsToNextUtcDay(),
    );
  }
  if (code !== 1) throw new Error(`admitSend returned ${code}`);

  return {
    kind: 'admitted',
    async complete(responseJson) {
      if (!useKey) return;
      await ctx.redis.multi().hset(idemKey, 's', 'done', 'r', responseJson).expire(idemKey, IDEMPOTENCY_TTL_SECONDS).exec();
    },
    async release() {
      const m = ctx.redis.multi().decrby(dailyKey, q.count);
      if (useKey) m.del(idemKey);
      await m.exec();
    },
  };
}

/** After Redis lost the day's counter, it is rebuilt from the messages Postgres holds for that day. */
async function seedDailyCount(ctx: AppContext, orgId: string, dailyKey: string): Promise<void> {
  const now = new Date();
  const dayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  // Ids are time-sortable: "created today" is an id range of each status's part of the
  // (org_id, status, id) index, which the status list lets Postgres read range by range.
  const { rows } = await ctx.db.query('SELECT count(*)::int AS n FROM messages WHERE org_id = $1 AND status = ANY($3::text[]) AND id >= $2', [
    orgId,
    idFloor('message', dayStart),
    MESSAGE_STATUSES,
  ]);
  await ctx.redis.set(dailyKey, rows[0].n as number, 'EX', 2 * 86_400, 'NX');
}
