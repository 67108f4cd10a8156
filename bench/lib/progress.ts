/**
 * One status line on stderr, rewritten in place (a bar and a label). On a non-TTY (CI, logs)
 * each step is printed once on its own line instead, so logs stay readable.
 */
const WIDTH = 24;
const tty = process.stderr.isTTY === true;
let quiet = false;

export function setQuiet(value: boolean): void {
  quiet = value;
}

export function bar(fraction: number): string {
  const f = Math.max(0, Math.min(1, fraction));
  const full = Math.round(f * WIDTH);
  return `${'█'.repeat(full)}${'░'.repeat(WIDTH - full)} ${String(Math.round(f * 100)).padStart(3)}%`;
}

export function status(line: string): void {
  if (quiet) return;
  if (tty) process.stderr.write(`\r\x1b[2K${line}`);
}

export function note(line: string): void {
  if (quiet) return;
  process.stderr.write(tty ? `\r\x1b[2K${line}\n` : `${line}\n`);
}

/** Shows a bar filling over `seconds` while `work` runs; returns what work returns. */
export async function timed<T>(label: string, seconds: number, work: Promise<T>): Promise<T> {
  const started = Date.now();
  const tick = setInterval(() => status(`${label} ${bar((Date.now() - started) / (seconds * 1000))}`), 200);
  try {
    return await work;
  } finally {
    clearInterval(tick);
    status('');
  }
}
