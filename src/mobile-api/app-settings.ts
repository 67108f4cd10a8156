import type { AppContext } from '../context/app-context.js';
import { errors } from '../errors/errors.js';
import { signingKeyFor } from './webhook-keys.js';
import { selectPacingPerMinute } from './sql/select-pacing-per-minute.js';

/**
 * A phone's `system:ping` period: its battery and connection reach the resting-phone rule and
 * its presence this often even with no SMS to report (the ping also pulls, a fallback for a
 * lost event stream).
 */
export const PING_INTERVAL_SECONDS = 300;

/**
 * GET /mobile/v1/settings (smsgate-mobile-protocol.md §7.1). Only keys and enum values every
 * supported app accepts: one unknown enum value aborts the whole import, and a section that is
 * not an object breaks it, so an empty section is `{}`.
 * - gateway.notification_channel SSE_ONLY: nothing depends on Firebase (apps before 1.53.0 ignore it);
 * - messages.limit_*: the app's own cap, no higher than the phone's pacing, so the app never
 *   trips Android's limit even if it held more than Hafatra's pacing lets out (it counts
 *   messages, Hafatra parts, so it never binds first);
 * - webhooks.signing_key: the phone's own, which Hafatra verifies X-Signature with.
 */
export async function appSettings(ctx: AppContext, deviceId: string): Promise<Record<string, Record<string, unknown>>> {
  const device = await selectPacingPerMinute(ctx.db, deviceId);
  if (!device) throw errors.notFound('device');
  const pacing = device.pacing_per_minute ?? ctx.config.pacingPerMinute;
  return {
    gateway: { notification_channel: 'SSE_ONLY' },
    messages: { limit_period: 'PerMinute', limit_value: pacing },
    webhooks: { signing_key: await signingKeyFor(ctx.db, deviceId) },
    ping: { interval_seconds: PING_INTERVAL_SECONDS },
    encryption: {},
  };
}
