import { parsePhoneTime } from '../time/phone-time.js';
import { CLOCK_SKEW_LIMIT_MS, type ClockSkewWarning } from '../time/phone-clock.js';
import type { IncomingSms } from './schemas.js';

/** A received SMS with the time the server will store for it. */
export interface PreparedSms {
  sms: IncomingSms;
  receivedAt: Date;
  warning?: ClockSkewWarning;
}

/**
 * A receivedAt in the past is normal (a phone keeps SMS while inbound is locked and sends them
 * later); one in the future can only be a wrong clock, so the server's own time is used.
 */
export function prepareSms(sms: IncomingSms, now: Date): PreparedSms {
  const at = parsePhoneTime(sms.receivedAt);
  if (!at) return { sms, receivedAt: now }; // not reached: the schema checked it with the same parser
  if (at.getTime() - now.getTime() > CLOCK_SKEW_LIMIT_MS) {
    return {
      sms,
      receivedAt: now,
      warning: { code: 'clock_skew', message: `receivedAt ${sms.receivedAt} is ahead of the server clock; the server time was used` },
    };
  }
  return { sms, receivedAt: at };
}
