import type { AppContext } from '../app/context.js';
import { applyTransitions } from '../messages/transitions.js';
import { removeFromDispatch } from '../messages/dispatch-queue.js';
import { returnToQueues } from './return-to-queues.js';

const BATCH = 1000;
/** A claim not confirmed in Postgres within this time was interrupted (the process died). */
export const CLAIM_RECOVERY_MS = 30_000;

/** queued → expired at expiresAt: no phone could send it in time. */
export async function expireQueued(ctx: AppContext): Promise<number> {
  const { rows } = await ctx.db.query(
    `SELECT id FROM messages WHERE status = 'queued' AND expires_at <= now() ORDER BY expires_at LIMIT ${BATCH}`,
  );
  if (rows.length === 0) return 0;
  const at = new Date();
  const changed = await applyTransitions(ctx.db, rows.map((r) => ({ id: r.id as string, to: 'expired' as const, at, source: 'system' as const, code: 'expired' })));
  const byOrg = new Map<string, { id: string; requestedDeviceId: string | null }[]>();
  for (const m of changed) {
    const list = byOrg.get(m.orgId) ?? [];
    list.push({ id: m.id, requestedDeviceId: m.requestedDeviceId });
    byOrg.set(m.orgId, list);
  }
  for (const [orgId, items] of byOrg) await removeFromDispatch(ctx, orgId, items);
  return changed.length;
}

/** claimed/sending → unknown when the phone said nothing for unknownAfterSeconds. */
export async function markSilentUnknown(ctx: AppContext): Promise<number> {
  const { rows } = await ctx.db.query(
    `SELECT id FROM messages WHERE status IN ('claimed', 'sending') AND updated_at < now() - $1 * interval '1 second'
     ORDER BY updated_at LIMIT ${BATCH}`,
    [ctx.config.unknownAfterSeconds],
  );
  if (rows.length === 0) return 0;
  const at = new Date();
  const changed = await applyTransitions(ctx.db, rows.map((r) => ({ id: r.id as string, to: 'unknown' as const, at, source: 'system' as const, code: 'no_report' })));
  return changed.length;
}

/**
 * Claims Redis made but Postgres never confirmed (the API process died in between): a message
 * still queued in Postgres goes back on its queue; any other is dropped from the claiming set.
 */
export async function recoverInterruptedClaims(ctx: AppContext): Promise<number> {
  const { rows: orgs } = await ctx.db.query('SELECT id FROM organizations');
  let recovered = 0;
  for (const { id: orgId } of orgs as { id: string }[]) {
    const k = ctx.keys.org(orgId);
    const stuck = await ctx.redis.zrangebyscore(k.claiming(), '-inf', Date.now() - CLAIM_RECOVERY_MS, 'LIMIT', 0, BATCH);
    if (stuck.length > 0) recovered += await returnToQueues(ctx, orgId, stuck);
  }
  return recovered;
}
