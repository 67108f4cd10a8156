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
