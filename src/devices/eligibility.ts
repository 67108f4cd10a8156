import type { Queryable } from '../db/pool.js';
import { errors } from '../errors/errors.js';

/**
 * Whether a send can be taken by a phone: eligible means not revoked, outbound enabled and not
 * draining (design.md). A named device must belong to the organization; a named SIM must be one
 * the phone reported (a phone that reported no SIM yet is given the benefit of the doubt).
 */
export async function assertCanSend(db: Queryable, q: { orgId: string; deviceId?: string; simSubscriptionId?: number }): Promise<void> {
  if (q.deviceId === undefined) {
    const { rows } = await db.query(`SELECT EXISTS (SELECT 1 FROM devices WHERE org_id = $1 AND revoked_at IS NULL AND outbound_enabled AND NOT draining) AS ok`, [q.orgId]);
    if (!rows[0].ok) throw errors.noDevice('no phone in the organization can send (none paired, or all revoked, draining or with outbound disabled)');
    return;
  }
  const { rows } = await db.query(
    `SELECT d.revoked_at IS NULL AS live, d.outbound_enabled AS outbound, d.draining,
       ARRAY(SELECT subscription_id FROM device_sims s WHERE s.device_id = d.id AND s.removed_at IS NULL) AS sims
     FROM devices d WHERE d.id = $1 AND d.org_id = $2`,
    [q.deviceId, q.orgId],
  );
  const d = rows[0] as { live: boolean; outbound: boolean; draining: boolean; sims: number[] } | undefined;
  if (!d) throw errors.invalid(`deviceId: no device ${q.deviceId} in this organization`);
  if (!d.live) throw errors.noDevice(`device ${q.deviceId} is revoked`);
  if (!d.outbound) throw errors.noDevice(`device ${q.deviceId} has outbound sending disabled`);
  if (d.draining) throw errors.noDevice(`device ${q.deviceId} is draining and takes no new messages`);
  if (q.simSubscriptionId !== undefined && d.sims.length > 0 && !d.sims.includes(q.simSubscriptionId)) {
    throw errors.invalid(`simSubscriptionId: device ${q.deviceId} has no SIM ${q.simSubscriptionId}`);
  }
}
