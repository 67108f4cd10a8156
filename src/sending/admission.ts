import type { AppContext } from '../context/app-context.js';
import { errors } from '../errors/errors.js';
import { admitSend as admitInRedis } from '../redis/scripts/admit-send.js';
import { releaseSend } from '../redis/scripts/release-send.js';
import { secondsToNextUtcDay, utcDay } from '../redis/keys.js';
import { seedDailyCount } from './daily-count.js';

/**
 * A send request's admission (lua/admitSend-3.lua): idempotency replay or conflict, then the
 * daily limit, in one atomic step. The admitted count is also recorded as a reservation in the
 * organization's ledger. An admitted request either completes (its response is stored for
 * replays, its reservation dropped) or is released (lua/releaseSend-3.lua: its count refunded,
 * its key freed) when it fails before its messages were committed. A request whose process dies
 * does neither: a retry takes its key over after TAKEOVER_AFTER_MS, and the reconciler
 * (reservations.ts) refunds its count after RESERVATION_LEASE_MS unless its batch committed.
 */
const IDEMPOTENCY_TTL_SECONDS = 86_400;
const PENDING_TTL_SECONDS = 120;

export const SEND_TIMING = {
  /** A retry meeting a key pending for longer than this takes it over (its holder most likely died). */
  takeoverAfterMs: 5_000,
  /**
   * A send that has not reached COMMIT this long after its admission rolls back instead, so that
   * the reconciler may refund a reservation older than the lease without a late commit behind it.
   */
  commitDeadlineMs: 30_000,
  /** Age after which the reconciler settles a reservation: refunded unless its batch committed. */
  reservationLeaseMs: 60_000,
  /**
   * A daily counter seeded from Postgres after Redis lost it is counted again this long after:
   * by then every send admitted before the loss has committed or rolled back.
   */
  recountAfterSeedMs: 35_000,
} as const;

export type Admission =
  | { kind: 'replay'; responseJson: string }
  | {
      kind: 'admitted';
      /** Wall-clock ms of the admission, the reservation's score (the commit deadline counts from it). */
      admittedAt: number;
      /** The request answered: `answer` (made only when an idempotency key keeps it) is stored, the reservation dropped. */
      complete(answer: () => string): Promise<void>;
      /** The request ends without committing: it failed, or its key's batch exists (committed by another request). */
      release(outcome: 'failed' | 'batch-exists'): Promise<void>;
    };

export async function admitSend(ctx: AppContext, q: { orgId: string; dailyLimit: number; idempotencyKey?: string; requestHash: string; count: number; batchId: string }): Promise<Admission> {
  const k = ctx.keys.org(q.orgId);
  const admittedAt = ctx.clock.now();
  const dailyKey = k.dailyCount(utcDay(new Date(admittedAt)));
  const idemKey = k.idempotency(q.idempotencyKey ?? '-');
  const ledger = k.sendReservations();
  const useKey = q.idempotencyKey !== undefined;
  const run = () =>
    admitInRedis(
      ctx.redis,
      { idempotency: idemKey, dailyCount: dailyKey, reservations: ledger },
      {
        idempotencyKey: q.idempotencyKey,
        requestHash: q.requestHash,
        count: q.count,
        dailyLimit: q.dailyLimit,
        pendingTtlSeconds: PENDING_TTL_SECONDS,
        now: admittedAt,
        takeoverAfterMs: SEND_TIMING.takeoverAfterMs,
        batchId: q.batchId,
      },
    );

  let result = await run();
  if (result.kind === 'counterMissing') {
    await seedDailyCount(ctx, q.orgId, utcDay(new Date(admittedAt)), ctx.clock.now() + SEND_TIMING.recountAfterSeedMs);
    result = await run();
  }
  switch (result.kind) {
    case 'replay':
      return { kind: 'replay', responseJson: result.responseJson };
    case 'requestMismatch':
      throw errors.conflict('this idempotency-key was already used with a different request');
    case 'stillInFlight':
      throw errors.conflict('a request with this idempotency-key is still being processed; retry shortly');
    case 'dailyLimitReached':
      throw errors.rateLimited(
        `daily message limit of ${q.dailyLimit} reached (${result.countToday} sent today, ${q.count} more requested); it resets at 00:00 UTC`,
        secondsToNextUtcDay(new Date(ctx.clock.now())),
      );
    case 'counterMissing':
      throw new Error('admitSend found no daily counter right after seeding it');
  }
  if (result.takeover !== 'none') ctx.log.warn({ orgId: q.orgId, idempotencyKey: q.idempotencyKey }, 'idempotency key taken over from a request that did not finish');

  const reservation = reservationMember(q.batchId, q.count, q.idempotencyKey);
  // An inherited count is the taken-over request's too: refunded only once neither can commit (the reconciler knows).
  const inherited = result.takeover === 'inherited';
  return {
    kind: 'admitted',
    admittedAt,
    async complete(answer) {
      if (!useKey) {
        // Not awaited: the answer does not depend on it, and a reservation left behind is
        // dropped by the reconciler once it sees the batch committed.
        ctx.redis.zrem(ledger, reservation).catch((err: unknown) => ctx.log.warn({ err }, 'send reservation not dropped'));
        return;
      }
      // h again: the record may have expired or been freed by a retry meanwhile.
      await ctx.redis.multi().hset(idemKey, 'h', q.requestHash, 's', 'done', 'r', answer()).expire(idemKey, IDEMPOTENCY_TTL_SECONDS).zrem(ledger, reservation).exec();
    },
    async release(outcome) {
      const mode = !inherited ? 'refund' : outcome === 'batch-exists' ? 'drop' : 'keep';
      await releaseReservation(ctx, { orgId: q.orgId, reservation, admittedAt, idempotencyKey: q.idempotencyKey, mode });
    },
  };
}

/** A reservation in the ledger: `<batchId>:<count>[:<idempotency key>]` (as lua/admitSend-3.lua builds it). */
export const reservationMember = (batchId: string, count: number, key?: string) => (key === undefined ? `${batchId}:${count}` : `${batchId}:${count}:${key}`);

export function parseReservation(member: string): { batchId: string; count: number; idempotencyKey?: string } | undefined {
  const match = /^([^:]+):(\d+)(?::(.+))?$/s.exec(member);
  if (!match) return undefined;
  return { batchId: match[1]!, count: Number(match[2]), ...(match[3] !== undefined ? { idempotencyKey: match[3] } : {}) };
}

/** Refunds (or drops, or keeps) a reservation still in the ledger, at most once, and frees the key if it still holds it. */
export async function releaseReservation(ctx: AppContext, r: { orgId: string; reservation: string; admittedAt: number; idempotencyKey?: string; mode: 'refund' | 'drop' | 'keep' }): Promise<boolean> {
  const parsed = parseReservation(r.reservation);
  if (!parsed) throw new Error(`malformed send reservation ${r.reservation}`);
  const k = ctx.keys.org(r.orgId);
  return releaseSend(
    ctx.redis,
    { idempotency: k.idempotency(r.idempotencyKey ?? '-'), dailyCount: k.dailyCount(utcDay(new Date(r.admittedAt))), reservations: k.sendReservations() },
    { reservation: r.reservation, count: parsed.count, batchId: parsed.batchId, mode: r.mode },
  );
}
