import type { ScenarioResult } from '../lib/results.js';
import { HEADERS, resultRows } from './rows.js';

/** A fixed-width table for the terminal. */
export function terminalTable(results: ScenarioResult[]): string {
  const rows = [HEADERS, ...resultRows(results)];
  const widths = HEADERS.map((_, i) => Math.min(70, Math.max(...rows.map((r) => (r[i] ?? '').length))));
  const line = (r: string[]) => r.map((c, i) => (c.length > widths[i]! ? `${c.slice(0, widths[i]! - 1)}…` : c.padEnd(widths[i]!))).join('  ');
  return [line(rows[0]!), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}
