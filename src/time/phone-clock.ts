import { Type, type Static } from '@sinclair/typebox';
import { parsePhoneTime } from './phone-time.js';

/** A phone's clock more than this far off is not trusted: the server's time is used instead. */
export const CLOCK_SKEW_LIMIT_MS = 5 * 60_000;

/** What a reply carries when the server used its own time because the phone's clock was off. */
export const ClockSkewWarningSchema = Type.Object({ code: Type.Literal('clock_skew'), message: Type.String() });
export type ClockSkewWarning = Static<typeof ClockSkewWarningSchema>;

/** The time to record for a phone's timestamp, and a warning when the phone's clock is off. */
export function trustedTime(phoneTime: string | undefined, now = new Date()): { at: Date; warning?: ClockSkewWarning } {
  if (phoneTime === undefined) return { at: now };
  const t = parsePhoneTime(phoneTime) ?? new Date(Number.NaN);
  const skew = t.getTime() - now.getTime();
  if (Number.isNaN(skew) || Math.abs(skew) > CLOCK_SKEW_LIMIT_MS) {
    return {
      at: now,
      warning: { code: 'clock_skew', message: `phone clock is ${Math.round(skew / 1000)} s off the server's; server time used` },
    };
  }
  // A timestamp in the (near) future is clamped: a message cannot be sent after it is recorded.
  return { at: skew > 0 ? now : t };
}
