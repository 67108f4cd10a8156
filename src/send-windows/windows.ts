import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../schemas/schema-kit.js';

/**
 * Send windows (quiet hours, issue 21): when an organization, or one of its phones, may send.
 * A window set has one time zone and a few ranges; a range is open on each of its days from
 * `from` to `to`, local time. A `to` at or before `from` runs across midnight, into the next day
 * (22:00–06:00 opened on Friday closes on Saturday at 06:00); `24:00` is the end of the day.
 * A time that does not exist on a DST day (02:30 when clocks go from 02:00 to 03:00) is read
 * with the offset before the change, so it falls an hour later (03:30); a time that happens
 * twice (01:30 when clocks go back) is the first one.
 */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const Day = Type.Union(
  WEEKDAYS.map((d) => Type.Literal(d)),
  { errorMessage: `must be one of ${WEEKDAYS.join(', ')}` },
);

export const SendWindowRangeSchema = Type.Object(
  {
    days: Type.Array(Day, { minItems: 1, maxItems: 7, uniqueItems: true, errorMessage: 'must list 1 to 7 different days (mon … sun)' }),
    from: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', errorMessage: 'must be a time HH:MM from 00:00 to 23:59' }),
    to: Type.String({ pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$', errorMessage: 'must be a time HH:MM from 00:00 to 24:00' }),
  },
  { additionalProperties: false },
);

export const SendWindowsSchema = Type.Object(
  {
    timeZone: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_+/-]+$', errorMessage: 'must be an IANA time zone such as Indian/Antananarivo' }),
    ranges: Type.Array(SendWindowRangeSchema, { minItems: 1, maxItems: 7, errorMessage: 'must hold 1 to 7 ranges' }),
  },
  { additionalProperties: false },
);
export type SendWindows = Static<typeof SendWindowsSchema>;

/** What a setting takes: a window set, or null for none (send at any hour). */
export const SendWindowsSetting = Nullable(SendWindowsSchema);

const DAY_MS = 86_400_000;
const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The IANA name Intl knows the zone by (`indian/antananarivo` → `Indian/Antananarivo`), or null if it knows none. */
export function canonicalTimeZone(timeZone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/**
 * What the schema cannot say: a time zone Intl does not know, a range that opens and closes at
 * the same minute. The message names the field under `root` (`sendWindows.ranges[0].to`).
 */
export function sendWindowsProblem(w: SendWindows, root: string): string | null {
  if (canonicalTimeZone(w.timeZone) === null) return `${root}.timeZone: ${w.timeZone} is not a time zone we know (an IANA name such as Indian/Antananarivo)`;
  for (const [i, r] of w.ranges.entries()) {
    if (minutesOf(r.from) === minutesOf(r.to)) return `${root}.ranges[${i}].to: must differ from from (a whole day is 00:00 to 24:00)`;
  }
  return null;
}

/** The set as stored: the time zone by its canonical name, each range's days in week order. */
export function normalizeSendWindows(w: SendWindows): SendWindows {
  return {
    timeZone: canonicalTimeZone(w.timeZone) ?? w.timeZone,
    ranges: w.ranges.map((r) => ({ days: WEEKDAYS.filter((d) => r.days.includes(d)), from: r.from, to: r.to })),
  };
}

/** The wall clock of `timeZone` at `ms`, read as if it were UTC: minus `ms`, the zone's offset. */
function localAsUtc(f: Intl.DateTimeFormat, ms: number): number {
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(ms)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
}

/** The instant a local date and time (minutes may pass 24:00) of the zone stands for. */
function instantOf(f: Intl.DateTimeFormat, y: number, m0: number, d: number, minutes: number): number {
  const wall = Date.UTC(y, m0, d, 0, minutes);
  const first = wall - (localAsUtc(f, wall) - wall);
  // Near a DST change the offset at that first guess may be another one: try it too.
  const second = wall - (localAsUtc(f, first) - first);
  const exact = [first, second].filter((t) => localAsUtc(f, t) === wall);
  // A time the clocks passed twice: the first time. One they skipped: as far on as they moved.
  return exact.length > 0 ? Math.min(...exact) : Math.max(first, second);
}

export type Interval = [start: number, end: number];

/** The times between fromMs and toMs when the set is open, in order, overlapping ones merged. */
export function openIntervals(w: SendWindows, fromMs: number, toMs: number): Interval[] {
  const f = formatterFor(w.timeZone);
  const first = new Date(localAsUtc(f, fromMs - DAY_MS));
  const found: Interval[] = [];
  for (let i = 0; ; i++) {
    // Date.UTC carries day overflow into the month and year: a calendar walk with no zone in it.
    const day = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), first.getUTCDate() + i));
    const [y, m0, d] = [day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()];
    if (instantOf(f, y, m0, d, 0) >= toMs) break;
    const weekday = WEEKDAYS[(day.getUTCDay() + 6) % 7]!;
    for (const r of w.ranges) {
      if (!r.days.includes(weekday)) continue;
      const from = minutesOf(r.from);
      const to = minutesOf(r.to);
      const start = instantOf(f, y, m0, d, from);
      const end = instantOf(f, y, m0, d, to > from ? to : to + 1440);
      if (end > fromMs && start < toMs) found.push([Math.max(start, fromMs), Math.min(end, toMs)]);
    }
  }
  return merge(found);
}

function merge(list: Interval[]): Interval[] {
  const sorted = [...list].sort((a, b) => a[0] - b[0]);
  const out: Interval[] = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** The times open in both lists. */
export function intersect(a: Interval[], b: Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const s = Math.max(a[i]![0], b[j]![0]);
    const e = Math.min(a[i]![1], b[j]![1]);
    if (s < e) out.push([s, e]);
    if (a[i]![1] < b[j]![1]) i++;
    else j++;
  }
  return out;
}

/** How far ahead a phone's open times are worked out: past it, the claim script asks for them anew. */
export const SEND_WINDOWS_HORIZON_MS = 8 * DAY_MS;

/**
 * A phone's open times as its dispatch state holds them (`open`, read by lua/claimJobs-7.lua):
 * '' when neither its organization nor the phone has windows (open at any hour); else
 * `<from>-<horizon>|<start>-<end>,…` (ms): between from and the horizon, the times when all of
 * them are open. A claim outside from–horizon has the state loaded anew.
 */
export function encodeOpenTimes(sets: (SendWindows | null)[], now: number): string {
  const present = sets.filter((s): s is SendWindows => s !== null);
  if (present.length === 0) return '';
  // From an hour back: another process whose clock runs a little behind reads them too.
  const from = now - 3_600_000;
  const horizon = now + SEND_WINDOWS_HORIZON_MS;
  const open = present.map((s) => openIntervals(s, from, horizon)).reduce(intersect);
  return `${from}-${horizon}|${open.map(([s, e]) => `${s}-${e}`).join(',')}`;
}

/** Whether the set is open at `ms` (null: no windows, always open). */
export function isOpenAt(w: SendWindows | null, ms: number): boolean {
  if (w === null) return true;
  return openIntervals(w, ms, ms + 1).length > 0;
}

/** When the set next opens or closes after `ms` (within the horizon; null: never, or no windows). */
export function nextChange(w: SendWindows | null, ms: number): number | null {
  if (w === null) return null;
  const open = openIntervals(w, ms, ms + SEND_WINDOWS_HORIZON_MS);
  const first = open[0];
  if (!first) return null;
  if (first[0] > ms) return first[0];
  return first[1] < ms + SEND_WINDOWS_HORIZON_MS ? first[1] : null;
}
