import type { HotClient, HotDb } from '../../db/pool.js';
import { claimDeliveryRows, type Claim, type DeliveryWork } from '../sql/claim-delivery-rows.js';

export { CLAIM_STATEMENT, type Claim, type DeliveryWork } from '../sql/claim-delivery-rows.js';

/**
 * Claims deliveries for an attempt: each pending or retrying delivery that is due and not leased
 * gets a lease (leased_until), in one statement, so of two jobs holding the same delivery (the
 * relay's and the recovery pass's) only one gets it. The lease is in no index, so the claim is a
 * heap-only update (migration 018). It runs prepared on the hot pool: planned on an ordinary
 * connection it read the whole table (a seq scan and hash join) until the table grew past the
 * planner's break-even. A claim that outlives its
 * worker (a crash mid-attempt) shows as an overdue delivery once the lease has passed, which the
 * recovery pass queues again.
 * Deliveries not claimed (final, gone, not due, claimed elsewhere) come back null.
 */
export async function claimDeliveries(hot: HotDb | HotClient, claims: Claim[]): Promise<Array<DeliveryWork | null>> {
  const rows = await claimDeliveryRows(hot, claims);
  const byId = new Map(rows.map((r) => [r.id, r]));
  // The same delivery twice in one batch (two jobs holding it) is claimed once: the first wins.
  return claims.map((c) => {
    const work = byId.get(c.deliveryId) ?? null;
    byId.delete(c.deliveryId);
    return work;
  });
}

/** The current secret, and the previous one until it expires: one v1 signature each. */
export function signingSecrets(w: DeliveryWork, now = new Date()): string[] {
  const previousValid = w.previousSecret && w.previousSecretExpiresAt && w.previousSecretExpiresAt > now;
  return previousValid ? [w.secret, w.previousSecret!] : [w.secret];
}
