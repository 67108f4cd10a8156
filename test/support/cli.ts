import { expect } from 'vitest';
import { main } from '../../src/cli/main.js';

export type CliRun = { code: number; stdout: string; stderr: string };

/**
 * The real `hafatra` entry point in this process, with `env` added to the environment and its
 * output captured: spawning a process per command costs about a second each.
 */
export async function runCliInProcess(args: string[], env: Record<string, string>): Promise<CliRun> {
  const saved = { ...process.env };
  const out = { stdout: '', stderr: '' };
  const write = { stdout: process.stdout.write, stderr: process.stderr.write };
  Object.assign(process.env, env);
  process.stdout.write = ((chunk: string) => {
    out.stdout += chunk;
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => {
    out.stderr += chunk;
    return true;
  }) as typeof process.stderr.write;
  try {
    return { code: await main(args), ...out };
  } finally {
    process.stdout.write = write.stdout;
    process.stderr.write = write.stderr;
    process.env = saved;
  }
}

/** `hafatra` in this process against `env`, and `json(...)`: the command with --json, expected to exit 0, its output parsed. */
export function cliRunner(env: Record<string, string>) {
  const hafatra = (...args: string[]) => runCliInProcess(args, env);
  async function json(...args: string[]): Promise<any> {
    const res = await hafatra(...args, '--json');
    expect(res.code, res.stderr).toBe(0);
    return JSON.parse(res.stdout);
  }
  return { hafatra, json };
}
