/**
 * Receiving SMS (and reading mobile money) needs Hafatra's app to be the phone's default SMS
 * app, as last reported within the freshness window (45 minutes by default).
 */
export type InboundCapability = { state: 'unlocked' } | { state: 'locked'; reason: 'revoked' | 'not_reported' | 'not_default_sms_app' | 'stale' };

export function inboundCapability(
  d: { revokedAt: Date | null; defaultSmsApp: boolean | null; defaultSmsAppReportedAt: Date | null; protocol?: string },
  freshnessSeconds: number,
  now = Date.now(),
): InboundCapability {
  if (d.revokedAt) return { state: 'locked', reason: 'revoked' };
  // SMS Gateway for Android reads received SMS from Android's broadcast, which needs no role.
  if (d.protocol === 'mobile') return { state: 'unlocked' };
  if (d.defaultSmsApp === null || d.defaultSmsAppReportedAt === null) return { state: 'locked', reason: 'not_reported' };
  if (!d.defaultSmsApp) return { state: 'locked', reason: 'not_default_sms_app' };
  if (now - d.defaultSmsAppReportedAt.getTime() > freshnessSeconds * 1000) return { state: 'locked', reason: 'stale' };
  return { state: 'unlocked' };
}
