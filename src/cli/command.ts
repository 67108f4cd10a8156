import type { ParseArgsConfig } from 'node:util';
import type { AppContext } from '../context/app-context.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface CommandArgs {
  /** A string list for an option declared `multiple: true`. */
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  json: boolean;
}

export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
}

/**
 * One CLI command: `hafatra <path...> [options]`. Commands that read or change data get an
 * AppContext (the running service's Postgres and Redis, or embedded ones started for the call).
 */
export interface Command {
  path: string[];
  summary: string;
  usage: string;
  options?: OptionSpec;
  run(args: CommandArgs, io: CommandIo, services: () => Promise<AppContext>): Promise<number>;
}

/** A usage mistake: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function requireString(args: CommandArgs, name: string): string {
  const v = args.values[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

export function optionalInt(args: CommandArgs, name: string, min: number, max: number): number | undefined {
  const v = args.values[name];
  if (v === undefined) return undefined;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** A readable table, or one JSON document with --json. */
export function printRows(io: CommandIo, json: boolean, rows: Record<string, unknown>[], columns: string[]): void {
  if (json) {
    io.out(JSON.stringify(rows, null, 2));
    return;
  }
  if (rows.length === 0) {
    io.out('(none)');
    return;
  }
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.join(',') : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  io.out(columns.map((c, i) => c.padEnd(widths[i]!)).join('  '));
  for (const r of rows) io.out(columns.map((c, i) => cell(r[c]).padEnd(widths[i]!)).join('  '));
}

export function printObject(io: CommandIo, json: boolean, obj: Record<string, unknown>): void {
  if (json) io.out(JSON.stringify(obj, null, 2));
  else for (const [k, v] of Object.entries(obj)) io.out(`${k}: ${v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.join(',') : String(v ?? '-')}`);
}
