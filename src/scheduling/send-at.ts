import { FormatRegistry, Type } from '@sinclair/typebox';
import { parsePhoneTime } from '../time/phone-time.js';
import { errors } from '../errors/errors.js';
import { TEXT_PATTERN } from '../schemas/schema-kit.js';

/** How far ahead a send may be scheduled (the 30 days). */
export const MAX_SCHEDULE_AHEAD_MS = 30 * 86_400_000;
/**
 * A sendAt no further ahead than this is "now": the send is queued at once, as if it had none
 * (a client's clock a little ahead of ours, or a time computed as "now" on its side).
 */
export const SEND_NOW_WITHIN_MS = 2_000;

// The one RFC 3339 parser of the service (src/time/phone-time.ts), under the standard name so
// that /openapi.json says `format: date-time`. Nothing validated a date-time before.
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (value) => parsePhoneTime(value) !== null);

export const SendAtSchema = Type.String({
  pattern: TEXT_PATTERN,
  format: 'date-time',
  maxLength: 64,
  description: 'Beyond the spec: queue the messages at this time (RFC 3339, at most 30 days ahead); until then they are `accepted`. A time in the past or within 2 seconds means now.',
  errorMessage: 'must be an RFC 3339 date-time with a time zone, e.g. 2025-01-31T08:00:00Z or 2025-01-31T11:00:00+03:00',
});

export const ValidForSchema = Type.Integer({
  minimum: 60,
  maximum: 86_400,
  description: 'Beyond the spec: seconds the messages may wait for a phone once queued (at sendAt, else now) before they expire; shortens the 24 hours.',
  errorMessage: 'must be an integer number of seconds from 60 to 86400',
});

/** When a send is due: null when it is to be queued now, else its sendAt (400 naming sendAt when too far ahead). */
export function dueTime(sendAt: string | undefined, nowMs: number): Date | null {
  if (sendAt === undefined) return null;
  const at = parsePhoneTime(sendAt);
  if (at === null) throw errors.invalid(`sendAt: must be an RFC 3339 date-time with a time zone`);
  if (at.getTime() - nowMs > MAX_SCHEDULE_AHEAD_MS) throw errors.invalid(`sendAt: must be at most 30 days ahead (${new Date(nowMs + MAX_SCHEDULE_AHEAD_MS).toISOString()})`);
  return at.getTime() - nowMs <= SEND_NOW_WITHIN_MS ? null : at;
}

/** A message's lifetime from when it is queued: validFor when it shortens the configured TTL. */
export const lifetimeMs = (validForSeconds: number | undefined, ttlSeconds: number) => Math.min(validForSeconds ?? ttlSeconds, ttlSeconds) * 1000;
