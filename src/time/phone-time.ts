import { FormatRegistry, Type } from '@sinclair/typebox';
import { TEXT_PATTERN } from '../schemas/schema-kit.js';

/**
 * The one rule for every timestamp a phone sends (heartbeat `sentAt`, status `at`, incoming
 * `receivedAt`, socket frames and HTTP bodies alike): RFC 3339 with the seconds optional, `Z` or
 * a numeric offset (`+03:00`, or `+0300` as ISO 8601's basic form), fractions to nanoseconds.
 * Parsed here rather than by `new Date()`, whose accepted forms are the JavaScript engine's
 * choice: one parser means a timestamp valid in one frame is valid in all of them.
 */
const PATTERN = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:[Zz]|([+-])(\d{2}):?(\d{2}))$/;

const daysIn = (year: number, month: number) => new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** The instant a phone's timestamp names, or null when it breaks the rule (or names no real date). */
export function parsePhoneTime(text: string): Date | null {
  const m = PATTERN.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(m[i]));
  // RFC 3339 allows a leap second (:60); JavaScript time has none, so it counts as :59.
  const second = Math.min(Number(m[6] ?? 0), 59);
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  const offsetMinutes = m[8] ? (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10])) : 0;
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysIn(year!, month!)) return null;
  if (hour! > 23 || minute! > 59 || Number(m[6] ?? 0) > 60 || Number(m[9] ?? 0) > 23 || Number(m[10] ?? 0) > 59) return null;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0..99 as 1900..1999.
  date.setUTCFullYear(year!, month! - 1, day!);
  date.setUTCHours(hour!, minute! - offsetMinutes, second, millis);
  return Number.isNaN(date.getTime()) ? null : date;
}

FormatRegistry.Set('phone-date-time', (value) => parsePhoneTime(value) !== null);

export const PHONE_TIME_RULE = 'must be an RFC 3339 date-time with a time zone (seconds optional), e.g. 2025-01-31T08:00:00Z or 2025-01-31T11:00+03:00';

/** The schema of every phone timestamp: checked by parsePhoneTime itself, so the schema and the service never disagree. */
// TEXT_PATTERN too, so that U+0000 is named as such (and the schema says so, as every text field's does).
export const PhoneDateTime = Type.String({ pattern: TEXT_PATTERN, format: 'phone-date-time', maxLength: 64, errorMessage: PHONE_TIME_RULE });
