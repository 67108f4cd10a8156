import type { Queryable } from '../db/pool.js';
import type { DevicePrincipal } from '../auth/principal.js';
import { errors, HafatraError } from '../errors/errors.js';
import { inboundCapability, type InboundCapability } from '../devices/inbound-capability.js';
import { selectInboundDevice } from './sql/select-inbound-device.js';

/** What storing a received SMS needs to know about the phone that reports it. */
export interface InboundDevice {
  id: string;
  orgId: string;
  retentionDays: number;
  inbound: InboundCapability;
}

export async function loadInboundDevice(db: Queryable, principal: DevicePrincipal, freshnessSeconds: number): Promise<InboundDevice> {
  const row = await selectInboundDevice(db, principal.deviceId, principal.orgId);
  if (!row) throw errors.unauthorized('unknown device');
  const inbound = inboundCapability(
    { revokedAt: row.revoked_at, defaultSmsApp: row.default_sms_app, defaultSmsAppReportedAt: row.default_sms_app_reported_at, protocol: row.protocol },
    freshnessSeconds,
  );
  return { id: principal.deviceId, orgId: principal.orgId, retentionDays: row.retention_days, inbound };
}

const WHY: Record<Extract<InboundCapability, { state: 'locked' }>['reason'], (freshnessSeconds: number) => string> = {
  revoked: () => 'this phone was revoked',
  not_reported: () => 'the phone has not reported whether Hafatra is its default SMS app (send a heartbeat with defaultSmsApp)',
  not_default_sms_app: () => 'Hafatra is not the default SMS app on this phone',
  stale: (s) => `the phone last reported holding the default SMS app role more than ${Math.round(s / 60)} minutes ago (send a heartbeat)`,
};

/** The error a locked phone gets; it keeps the SMS and sends it again once inbound is unlocked. */
export function inboundLockedError(inbound: InboundCapability, freshnessSeconds: number): HafatraError | null {
  if (inbound.state === 'unlocked') return null;
  return new HafatraError('inbound_locked', `inbound is locked (${inbound.reason}): ${WHY[inbound.reason](freshnessSeconds)}`);
}
