import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sleep } from '../lib/stats.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HAFATRA_BIN = fileURLToPath(new URL('../../bin/hafatra.js', import.meta.url));
const HAFATRA_SOURCE = fileURLToPath(new URL('../../src/cli/entry.ts', import.meta.url));

/**
 * How to run `hafatra`: the built CLI (what `npm run bench` builds first, and what users run), or
 * the sources through tsx when HAFATRA_BENCH_FROM_SOURCE=1 (the CI test, which does not build).
 */
export function hafatraCommand(nodeFlags: string[] = []): string[] {
  return process.env.HAFATRA_BENCH_FROM_SOURCE === '1' ? ['node', ...nodeFlags, '--import', 'tsx', HAFATRA_SOURCE] : ['node', ...nodeFlags, HAFATRA_BIN];
}

const hasTaskset = spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;
const cpuCount = (await import('node:os')).availableParallelism();

/** Prefix that pins a command to one CPU when taskset exists and the machine has more than one. */
export function pinned(cpu: number | undefined, argv: string[]): string[] {
  if (cpu === undefined || !hasTaskset || cpuCount < 2) return argv;
  return ['taskset', '-c', String(cpu % cpuCount), ...argv];
}

/** Pins this very process (and the children it starts afterwards) to one CPU. */
export function pinSelf(cpu: number): boolean {
  if (!hasTaskset || cpuCount < 2) return false;
  return spawnSync('taskset', ['-p', '-c', String(cpu % cpuCount), String(process.pid)], { stdio: 'ignore' }).status === 0;
}

export interface Child {
  proc: ChildProcess;
  /** Everything it printed, for error messages. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

export function startChild(argv: string[], env: NodeJS.ProcessEnv, name: string): Child {
  const [cmd, ...args] = argv;
  const proc = spawn(cmd!, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (b: Buffer) => {
    out = (out + b.toString()).slice(-20_000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return {
    proc,
    output: () => `[${name}] ${out}`,
    async stop(graceMs = 15_000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Waits until the child has printed a line matching `pattern` (a readiness line), or dies. */
export async function waitForOutput(child: Child, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (pattern.test(child.output())) return;
    if (child.proc.exitCode !== null) throw new Error(`exited with ${child.proc.exitCode} before it was ready:\n${child.output()}`);
    await sleep(50);
  }
  throw new Error(`not ready within ${timeoutMs} ms:\n${child.output()}`);
}

/** Polls until `url` answers (any HTTP status) or the child dies. */
export async function waitForHttp(url: string, child: Child, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.proc.exitCode !== null) throw new Error(`exited with ${child.proc.exitCode} before listening:\n${child.output()}`);
    try {
      await fetch(url);
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${child.output()}`);
}

/** Runs a hafatra command to completion (migrate), throwing with its output on failure. */
export async function runHafatra(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const child = startChild([...hafatraCommand(), ...args], env, `hafatra ${args.join(' ')}`);
  const code = await new Promise<number | null>((resolve) => child.proc.once('exit', resolve));
  if (code !== 0) throw new Error(`hafatra ${args.join(' ')} failed (${code}):\n${child.output()}`);
  return child.output();
}

/** Starts a bench TypeScript script as its own process (tsx) and waits for its "listening <port>" line. */
export async function startScript(script: string, args: string[], cpu: number | undefined, name: string, env: NodeJS.ProcessEnv = process.env): Promise<{ child: Child; port: number }> {
  const path = fileURLToPath(new URL(`../${script}`, import.meta.url));
  const child = startChild(pinned(cpu, ['node', '--import', 'tsx', path, ...args]), env, name);
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    child.proc.stdout!.on('data', (b: Buffer) => {
      seen += b.toString();
      const m = /listening (\d+)/.exec(seen);
      if (m) resolve(Number(m[1]));
    });
    child.proc.once('exit', (code) => reject(new Error(`${name} exited (${code}) before listening:\n${child.output()}`)));
  });
  return { child, port };
}
