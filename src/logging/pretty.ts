// Log lines for a person at a terminal: `12:00:01 WARN  message  key=value`, instead of one
// JSON document per line. Per-request access lines are left out unless asked for (debug): in a
// terminal they bury the lines that matter. Machines (no TTY, LOG_FORMAT=json) get pino's JSON.

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const COLOURS: Record<number, string> = { 40: '\x1b[33m', 50: '\x1b[31m', 60: '\x1b[31m' };
const OWN_FIELDS = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'name', 'err']);

export interface PrettyOptions {
  /** Show the per-request access lines (`request`). */
  accessLines: boolean;
  colour: boolean;
}

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** One JSON log line as a readable one; null when it is left out. */
export function prettyLine(line: string, opts: PrettyOptions): string | null {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.trimEnd();
  }
  const level = Number(entry.level);
  if (!opts.accessLines && entry.msg === 'request' && level === 30) return null;
  const time = new Date(Number(entry.time)).toTimeString().slice(0, 8);
  const name = `${LEVELS[level] ?? String(level)}`.padEnd(5);
  const label = opts.colour && COLOURS[level] ? `${COLOURS[level]}${name}\x1b[0m` : name;
  const extras = Object.entries(entry)
    .filter(([k]) => !OWN_FIELDS.has(k))
    .map(([k, v]) => `${k}=${text(v)}`)
    .join(' ');
  const err = entry.err as { stack?: string; message?: string } | string | undefined;
  const errText = err === undefined ? '' : typeof err === 'string' ? `  err=${err}` : `\n  ${err.stack ?? err.message ?? text(err)}`;
  return `${time} ${label} ${String(entry.msg ?? '')}${extras ? `  ${extras}` : ''}${errText}`;
}

/** A pino destination writing pretty lines to `out`. */
export function prettyDestination(out: (line: string) => void, opts: PrettyOptions): { write(line: string): void } {
  return {
    write(line) {
      const shown = prettyLine(line, opts);
      if (shown !== null) out(`${shown}\n`);
    },
  };
}
