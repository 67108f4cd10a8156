import type { AppContext } from '../context/app-context.js';
import { parseReservation, releaseReservation, SEND_TIMING } from './admission.js';
import { countDaysMessages, dayStartMs } from './daily-count.js';
import { raiseDailyCount } from '../redis/scripts/raise-daily-count.js';
import { pipelineByNode } from '../redis/pipeline-by-node.js';
import { selectExistingBatchIds } from './sql/select-existing-batch-ids.js';
import { selectOrganizationIdsAfter } from './sql/select-organization-ids-after.js';
import { selectRecentBatchKeys } from './sql/select-recent-batch-keys.js';

const ORGS_PER_ROUND = 500;
const PER_ORG = 1000;
const RECOUNTS_PER_ROUND = 200;

/** How often a worker looks for reservations left by dead requests (each pass reads every organization's ledger). */
export const RESERVATION_SWEEP_MS = 10_000;

/**
 * Settles the daily-count reservations of send requests that never finished because their
 * process died between admission and the end of the request. Past the lease, a request still
 * alive can no longer commit (its commit deadline is half the lease), so Postgres decides: its
 * batch, or a batch of its idempotency key (a retry that took the key over, or the request it
 * took over, committed it), exists and the count stands (the reservation is dropped); else the
 * count is refunded.
 * After this the day's counter equals the messages Postgres holds again. Safe on several workers
 * at once: a reservation is refunded only by the call that removes it from the ledger.
 */
export async function settleStaleReservations(ctx: AppContext, now = Date.now()): Promise<number> {
  const cutoff = now - SEND_TIMING.reservationLeaseMs;
  let refunded = 0;
  let after = '';
  for (;;) {
    const orgIds = await selectOrganizationIdsAfter(ctx.db, after, ORGS_PER_ROUND);
    if (orgIds.length === 0) return refunded;
    refunded += await settleOrgs(ctx, orgIds, cutoff);
    if (orgIds.length < ORGS_PER_ROUND) return refunded;
    after = orgIds[orgIds.length - 1]!;
  }
}

async function settleOrgs(ctx: AppContext, orgIds: string[], cutoff: number): Promise<number> {
  const results = await pipelineByNode(
    ctx.redis,
    orgIds,
    (orgId) => ctx.keys.org(orgId).sendReservations(),
    (read, orgId) => read.zrangebyscore(ctx.keys.org(orgId).sendReservations(), '-inf', cutoff, 'WITHSCORES', 'LIMIT', 0, PER_ORG),
  );
  const stale: { orgId: string; reservation: string; admittedAt: number; batchId?: string; idempotencyKey?: string }[] = [];
  results.forEach(([err, flat], i) => {
    if (err) throw err;
    const list = flat as string[];
    for (let j = 0; j < list.length; j += 2) {
      const reservation = list[j]!;
      stale.push({ orgId: orgIds[i]!, reservation, admittedAt: Number(list[j + 1]), ...parseReservation(reservation) });
    }
  });
  if (stale.length === 0) return 0;

  const committed = await committedOf(ctx, stale);
  const spent: typeof stale = [];
  let refunded = 0;
  for (const s of stale) {
    if (s.batchId === undefined || committed(s)) spent.push(s);
    else if (await releaseReservation(ctx, { ...s, mode: 'refund' })) refunded++;
  }
  await pipelineByNode(
    ctx.redis,
    spent,
    (s) => ctx.keys.org(s.orgId).sendReservations(),
    (drop, s) => drop.zrem(ctx.keys.org(s.orgId).sendReservations(), s.reservation),
  );
  if (refunded > 0) ctx.log.warn({ refunded }, 'daily counts of send requests that died before committing refunded');
  return refunded;
}

/**
 * Whether a reservation's count was spent: its own batch committed, or (a retry having taken its
 * key over, or it having taken over another's) a batch of its key did, the one batch a key gets.
 */
async function committedOf(
  ctx: AppContext,
  stale: { orgId: string; batchId?: string; idempotencyKey?: string }[],
): Promise<(s: { orgId: string; batchId?: string; idempotencyKey?: string }) => boolean> {
  const keyed = stale.filter((s) => s.idempotencyKey !== undefined);
  const [ids, keys] = await Promise.all([
    selectExistingBatchIds(
      ctx.db,
      stale.flatMap((s) => (s.batchId ? [s.batchId] : [])),
    ),
    selectRecentBatchKeys(
      ctx.db,
      keyed.map((s) => s.orgId),
      keyed.map((s) => s.idempotencyKey),
    ),
  ]);
  return (s) => ids.has(s.batchId!) || (s.idempotencyKey !== undefined && keys.has(`${s.orgId}\n${s.idempotencyKey}`));
}

/**
 * Raises each seeded counter that is due to the day's messages plus the sends still in flight
 * (lua/raiseDailyCount-1.lua). The ledger is read first, then the rows counted, then the
 * ledger's sends whose batch is in Postgres by now are left out: a send is counted once at most
 * (one committing in between is in neither), so the floor is never above the truth.
 * Returns how many counters were raised.
 */
export async function recountSeededCounters(ctx: AppContext, now = Date.now()): Promise<number> {
  const due = await ctx.redis.zrangebyscore(ctx.keys.dailyRecounts(), '-inf', now, 'LIMIT', 0, RECOUNTS_PER_ROUND);
  let raised = 0;
  for (const member of due) {
    const [orgId, utcDay] = member.split('|') as [string, string];
    const keys = ctx.keys.org(orgId);
    const dayStart = dayStartMs(utcDay);
    const ledger = (await ctx.redis.zrangebyscore(keys.sendReservations(), dayStart, dayStart + 86_399_999)).flatMap((r) => {
      const parsed = parseReservation(r);
      return parsed ? [{ orgId, ...parsed }] : [];
    });
    const rows = await countDaysMessages(ctx, orgId, utcDay);
    const committed = ledger.length > 0 ? await committedOf(ctx, ledger) : () => false;
    const inFlight = ledger.reduce((sum, r) => sum + (committed(r) ? 0 : r.count), 0);
    const before = await ctx.redis.get(keys.dailyCount(utcDay));
    const after = await raiseDailyCount(ctx.redis, { dailyCount: keys.dailyCount(utcDay) }, { floor: rows + inFlight });
    if (before !== null && after !== null && after > Number(before)) {
      raised++;
      ctx.log.warn({ orgId, utcDay, from: Number(before), to: after }, 'daily counter raised: sends in flight when Redis lost its data committed after its seed');
    }
    await ctx.redis.zrem(ctx.keys.dailyRecounts(), member);
  }
  return raised;
}
