import { parsePhoneTime } from '../time/phone-time.js';

/**
 * Dates to and from SMS Gateway for Android (smsgate-mobile-protocol.md §1.6).
 *
 * Out: exactly three fractional digits and `Z`. The app's first parser reads every fractional
 * digit as milliseconds, so `.123456Z` would be 123 seconds late; toISOString never writes more.
 */
export const appDate = (at: Date | number): string => new Date(at).toISOString();

/**
 * In: `yyyy-MM-dd'T'HH:mm:ss.SSSXXX` in the phone's zone, any offset. Android before 7 builds the
 * offset from the zone's raw offset and writes a negative one as `+-5:00`: the inner sign is
 * the real one, and the hour may have one digit. Null when the text names no instant at all.
 */
export function parseAppDate(text: string): Date | null {
  const fixed = text.replace(/([+-])([+-])?(\d{1,2}):?(\d{2})$/, (_all, outer: string, inner: string | undefined, h: string, m: string) => `${inner ?? outer}${h.padStart(2, '0')}:${m}`);
  return parsePhoneTime(fixed);
}
