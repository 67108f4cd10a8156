import type { Queryable } from '../db/pool.js';
import { errors } from '../errors/errors.js';
import { anyDeviceCanSend } from './sql/any-device-can-send.js';
import { selectDeviceEligibility } from './sql/select-device-eligibility.js';

/**
 * Whether a send can be taken by a phone: eligible means not revoked, outbound enabled and not
 * draining (design.md). A named device must belong to the organization; a named SIM must be one
 * the phone reported (a phone that reported no SIM yet is given the benefit of the doubt).
 */
export async function assertCanSend(db: Queryable, q: { orgId: string; deviceId?: string; simSubscriptionId?: number }): Promise<void> {
  if (q.deviceId === undefined) {
    if (!(await anyDeviceCanSend(db, q.orgId))) throw errors.noDevice('no phone in the organization can send (none paired, or all revoked, draining or with outbound disabled)');
    return;
  }
  const d = await selectDeviceEligibility(db, q.deviceId, q.orgId);
  if (!d) throw errors.invalid(`deviceId: no device ${q.deviceId} in this organization`);
  if (!d.live) throw errors.noDevice(`device ${q.deviceId} is revoked`);
  if (!d.outbound) throw errors.noDevice(`device ${q.deviceId} has outbound sending disabled`);
  if (d.draining) throw errors.noDevice(`device ${q.deviceId} is draining and takes no new messages`);
  if (q.simSubscriptionId !== undefined && d.sims.length > 0 && !d.sims.includes(q.simSubscriptionId)) {
    throw errors.invalid(`simSubscriptionId: device ${q.deviceId} has no SIM ${q.simSubscriptionId}`);
  }
}
