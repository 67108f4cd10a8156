import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile, rename } from 'node:fs/promises';
import type { Socket } from 'node:net';
import type { RunAs } from './service-user.js';

export interface ServiceSpec {
  name: string;
  command: string;
  args: string[];
  /** stdout and stderr go here; the previous run's log is kept as `<logFile>.1`. */
  logFile: string;
  runAs: RunAs | undefined;
  env?: NodeJS.ProcessEnv;
  /** How the server wants to be asked to stop cleanly. */
  stopSignal: NodeJS.Signals;
}

export interface ServiceProcess {
  readonly name: string;
  readonly pid: number;
  /** Set once the process has exited. */
  exitStatus(): string | undefined;
  /** Clean stop; SIGKILL after `timeoutMs`. Safe to call more than once. */
  stop(timeoutMs: number): Promise<void>;
  /** Where its log is and how it ends, for error messages. */
  describeLog(): Promise<string>;
}

/**
 * Starts a server that must not outlive us. It runs in its own session, so a
 * Ctrl-C in the terminal reaches only hafatra, which then stops it in order.
 * Two fallbacks stop it when hafatra dies without calling stop(): a process
 * 'exit' hook (normal exit, uncaught exception) and a watchdog shell that
 * signals it when our end of its stdin pipe closes (SIGKILL, OOM kill).
 */
export async function startService(spec: ServiceSpec): Promise<ServiceProcess> {
  await rename(spec.logFile, `${spec.logFile}.1`).catch(() => undefined);
  const logFd = openSync(spec.logFile, 'a', 0o640);
  let child: ChildProcess;
  try {
    child = spawn(spec.command, spec.args, {
      detached: true,
      stdio: ['ignore', logFd, logFd],
      env: spec.env ?? process.env,
      ...(spec.runAs ? { uid: spec.runAs.uid, gid: spec.runAs.gid } : {}),
    });
  } finally {
    closeSync(logFd);
  }
  const pid = await spawned(child, spec.name);
  return superviseService(spec, child, pid);
}

function spawned(child: ChildProcess, name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    child.once('error', (err) => reject(new Error(`could not start ${name}: ${err.message}`)));
    child.once('spawn', () => resolve(child.pid ?? 0));
  });
}

function superviseService(spec: ServiceSpec, child: ChildProcess, pid: number): ServiceProcess {
  let exitStatus: string | undefined;
  // A failed kill() is reported as an 'error' event; the 'exit' event tells all we need.
  child.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exitStatus = signal ? `killed by ${signal}` : `exit code ${code}`;
      resolve();
    });
  });
  const watchdog = startWatchdog(pid, spec.stopSignal);
  const onExit = (): void => {
    watchdog.kill('SIGKILL');
    if (exitStatus === undefined) child.kill(spec.stopSignal);
  };
  process.once('exit', onExit);
  child.unref();

  let stopping: Promise<void> | undefined;
  const stop = async (timeoutMs: number): Promise<void> => {
    process.removeListener('exit', onExit);
    watchdog.kill('SIGKILL');
    if (exitStatus !== undefined) return;
    child.kill(spec.stopSignal);
    if (!(await exitsWithin(exited, timeoutMs))) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  return {
    name: spec.name,
    pid,
    exitStatus: () => exitStatus,
    stop: (timeoutMs) => (stopping ??= stop(timeoutMs)),
    describeLog: async () => `see ${spec.logFile}, which ends: ${await tailOf(spec.logFile, 4)}`,
  };
}

/**
 * A tiny shell that blocks reading its stdin, a pipe whose only writer is this
 * Node process. The kernel closes that pipe however we die, and the shell then
 * asks the server to stop.
 */
function startWatchdog(pid: number, signal: NodeJS.Signals): ChildProcess {
  const script = `read -r _ignored; kill -s ${signal.replace(/^SIG/, '')} "$1" 2>/dev/null`;
  const watchdog = spawn('/bin/sh', ['-c', script, 'hafatra-watchdog', String(pid)], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  watchdog.on('error', () => undefined);
  watchdog.stdin?.on('error', () => undefined);
  watchdog.unref();
  (watchdog.stdin as Socket | null)?.unref();
  return watchdog;
}

/** Without leaving a timer behind that would keep Node running. */
async function exitsWithin(exited: Promise<void>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const result = await Promise.race([exited.then(() => true), timeout]);
  clearTimeout(timer);
  return result;
}

async function tailOf(file: string, lines: number): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-lines).join(' | ');
}
