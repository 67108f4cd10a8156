import type { SendWindows } from './windows.js';

/**
 * Send windows as people type them, in the CLI (`--send-window`) and the dashboard (which
 * includes this file: keep it free of server imports): `mon-fri 08:00-20:00 Indian/Antananarivo`,
 * several ranges before the one time zone (`mon-fri 08:00-20:00 sat 09:00-12:00 UTC`), days as
 * runs (`mon-fri`, `fri-mon` wraps round the weekend) or lists (`sat,sun`), `none` for no windows.
 * The server still checks the result (time zone, times) and names the field.
 */
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
type Day = (typeof DAYS)[number];
type Range = SendWindows['ranges'][number];

export const SEND_WINDOW_EXAMPLE = 'mon-fri 08:00-20:00 Indian/Antananarivo';

const dayIndex = (d: string): number => DAYS.indexOf(d.toLowerCase() as Day);

/** `mon-fri,sun` → the days in week order; null when a part is not a day or a run of days. */
function parseDays(text: string): Day[] | null {
  const picked = new Set<number>();
  for (const part of text.split(',')) {
    const [first, last, extra] = part.split('-');
    if (extra !== undefined || !first || !/^[a-z]{3}$/i.test(first) || (last !== undefined && !/^[a-z]{3}$/i.test(last))) return null;
    const from = dayIndex(first);
    const to = last === undefined ? from : dayIndex(last);
    if (from < 0 || to < 0) return null;
    for (let i = from; ; i = (i + 1) % 7) {
      picked.add(i);
      if (i === to) break;
    }
  }
  return DAYS.filter((_, i) => picked.has(i));
}

/** The text back into a window set, or null for `none` (or nothing); throws an Error saying what does not read. */
export function parseSendWindowsText(text: string): SendWindows | null {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  if (tokens.length === 0 || (tokens.length === 1 && tokens[0]!.toLowerCase() === 'none')) return null;
  const timeZone = tokens.pop()!;
  if (tokens.length === 0 || tokens.length % 2 !== 0) throw new Error(`write it as days, times, then the time zone: ${SEND_WINDOW_EXAMPLE}`);
  const ranges: Range[] = [];
  for (let i = 0; i < tokens.length; i += 2) {
    const days = parseDays(tokens[i]!);
    if (!days) throw new Error(`${tokens[i]}: days are mon … sun, as mon-fri or sat,sun`);
    const times = /^(\d{2}:\d{2})-(\d{2}:\d{2})$/.exec(tokens[i + 1]!);
    if (!times) throw new Error(`${tokens[i + 1]}: times are HH:MM-HH:MM, such as 08:00-20:00 or 22:00-06:00`);
    ranges.push({ days, from: times[1]!, to: times[2]! });
  }
  return { timeZone, ranges };
}

/** Runs of three days or more as `mon-fri`, the others listed: `mon-wed,sat`. */
function formatDays(days: readonly Day[]): string {
  const idx = days.map((d) => DAYS.indexOf(d)).sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j + 1 < idx.length && idx[j + 1] === idx[j]! + 1) j++;
    if (j - i >= 2) parts.push(`${DAYS[idx[i]!]}-${DAYS[idx[j]!]}`);
    else for (let k = i; k <= j; k++) parts.push(DAYS[idx[k]!]!);
    i = j + 1;
  }
  return parts.join(',');
}

/** The set as typed: `mon-fri 08:00-20:00 Indian/Antananarivo`, `none` for null. */
export function formatSendWindowsText(w: SendWindows | null): string {
  if (w === null) return 'none';
  return `${w.ranges.map((r) => `${formatDays(r.days)} ${r.from}-${r.to}`).join(' ')} ${w.timeZone}`;
}
