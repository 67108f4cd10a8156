import type { AppContext } from '../context/app-context.js';
import { applyTransitions } from '../messages/transitions.js';
import { countStatusChanges } from '../infrastructure/metrics.js';
import { pipelineByNode } from '../redis/pipeline-by-node.js';
import { selectExpiredQueued } from './sql/select-expired-queued.js';
import { selectOrganizationIds } from './sql/select-organization-ids.js';
import { selectSilentHeld } from './sql/select-silent-held.js';

const BATCH = 1000;
/** A claim not confirmed in Postgres within this time was interrupted (the process died). */
export const CLAIM_RECOVERY_MS = 30_000;

/** queued → expired at expiresAt: no phone could send it in time. */
export async function expireQueued(ctx: AppContext): Promise<number> {
  const ids = await selectExpiredQueued(ctx.db, BATCH);
  if (ids.length === 0) return 0;
  const at = new Date();
  const changed = await applyTransitions(
    ctx.db,
    ctx.changes,
    ids.map((id) => ({ id, to: 'expired' as const, at, source: 'system' as const, code: 'expired' })),
  );
  countStatusChanges(ctx.metrics, changed);
  const byOrg = new Map<string, { id: string; requestedDeviceId: string | null }[]>();
  for (const m of changed) {
    const list = byOrg.get(m.orgId) ?? [];
    list.push({ id: m.id, requestedDeviceId: m.requestedDeviceId });
    byOrg.set(m.orgId, list);
  }
  for (const [orgId, items] of byOrg) await ctx.dispatch.remove(orgId, items);
  return changed.length;
}

/** claimed/sending → unknown when the phone said nothing for unknownAfterSeconds. */
export async function markSilentUnknown(ctx: AppContext): Promise<number> {
  const ids = await selectSilentHeld(ctx.db, ctx.config.unknownAfterSeconds, BATCH);
  if (ids.length === 0) return 0;
  const at = new Date();
  const changed = await applyTransitions(
    ctx.db,
    ctx.changes,
    ids.map((id) => ({ id, to: 'unknown' as const, at, source: 'system' as const, code: 'no_report' })),
  );
  countStatusChanges(ctx.metrics, changed);
  return changed.length;
}

/** Organizations whose claiming sets one round trip reads. */
const ORGS_PER_ROUND_TRIP = 500;

/**
 * Claims Redis made but Postgres never confirmed (the API process died in between): a message
 * still queued in Postgres goes back on its queue; any other is dropped from the claiming set.
 * Every organization's claiming set is looked at, ORGS_PER_ROUND_TRIP per pipelined round trip:
 * one command and one wait per organization made a sweep of 10,000 organizations take seconds.
 */
export async function recoverInterruptedClaims(ctx: AppContext): Promise<number> {
  const orgIds = await selectOrganizationIds(ctx.db);
  const before = Date.now() - CLAIM_RECOVERY_MS;
  let recovered = 0;
  for (let start = 0; start < orgIds.length; start += ORGS_PER_ROUND_TRIP) {
    const chunk = orgIds.slice(start, start + ORGS_PER_ROUND_TRIP);
    const replies = await pipelineByNode(
      ctx.redis,
      chunk,
      (orgId) => ctx.keys.org(orgId).claiming(),
      (reads, orgId) => reads.zrangebyscore(ctx.keys.org(orgId).claiming(), '-inf', before, 'LIMIT', 0, BATCH),
    );
    for (let i = 0; i < chunk.length; i++) {
      const [err, stuck] = replies[i] ?? [null, []];
      if (err) throw err;
      if ((stuck as string[]).length === 0) continue;
      const back = await ctx.dispatch.returnToQueues(chunk[i]!, stuck as string[]);
      // An idle phone claims only when told there is work: without this, what went back would
      // wait for the organization's next send.
      if (back > 0) await ctx.dispatch.signalWork([{ orgId: chunk[i]!, requestedDeviceId: null }]);
      recovered += back;
    }
  }
  return recovered;
}
