/**
 * Receiving SMS (and reading mobile money) needs Hafatra's app to be the phone's default SMS
 * app, as last reported within the freshness window (45 minutes by default).
 */
export type InboundCapability = { state: 'unlocked' } | { state: 'locked'; reason: 'revoked' | 'not_reported' | 'not_default_sms_app' | 'stale' };

type LockedReason = Extract<InboundCapability, { state: 'locked' }>['reason'];

// One object per answer rather than one per call: every socket's remembered heartbeat ack holds one.
const UNLOCKED: InboundCapability = Object.freeze({ state: 'unlocked' });
const locked = (reason: LockedReason): InboundCapability => Object.freeze({ state: 'locked', reason });
const LOCKED: Record<LockedReason, InboundCapability> = {
  revoked: locked('revoked'),
  not_reported: locked('not_reported'),
  not_default_sms_app: locked('not_default_sms_app'),
  stale: locked('stale'),
};

export function inboundCapability(
  d: { revokedAt: Date | null; defaultSmsApp: boolean | null; defaultSmsAppReportedAt: Date | null; protocol?: string },
  freshnessSeconds: number,
  now = Date.now(),
): InboundCapability {
  if (d.revokedAt) return LOCKED.revoked;
  // SMS Gateway for Android reads received SMS from Android's broadcast, which needs no role.
  if (d.protocol === 'mobile') return UNLOCKED;
  if (d.defaultSmsApp === null || d.defaultSmsAppReportedAt === null) return LOCKED.not_reported;
  if (!d.defaultSmsApp) return LOCKED.not_default_sms_app;
  if (now - d.defaultSmsAppReportedAt.getTime() > freshnessSeconds * 1000) return LOCKED.stale;
  return UNLOCKED;
}
