import { readFile, rm } from 'node:fs/promises';
import { commandLineOf, isAlive, sleep } from './process-info.js';

export interface PidFileCheck {
  pidFile: string;
  /** Substring of the owner's command line, e.g. 'postgres' or 'redis-server'. */
  program: string;
  /** What the process guards, for the error message. */
  dir: string;
  /** Grace period for a previous instance that is still shutting down. */
  waitMs: number;
  log: (line: string) => void;
}

/**
 * Makes sure no live `program` owns `pidFile` any more. A previous run killed hard
 * leaves the file behind: its pid is then dead (the server handles that itself) or,
 * after a reboot or in a container, reused by an unrelated process, which would make
 * the server refuse to start; such a file is removed. A live owner that is still
 * shutting down (our watchdog just signalled it) gets `waitMs` to go away; one that
 * stays is another instance using the same data, and we refuse rather than kill it.
 */
export async function ensureNoLiveOwner(check: PidFileCheck): Promise<void> {
  const pid = await readPid(check.pidFile);
  if (pid === undefined || !isAlive(pid)) return;
  if (!commandLineOf(pid)?.includes(check.program)) {
    check.log(`removing stale ${check.pidFile} (pid ${pid} now belongs to another program)`);
    await rm(check.pidFile, { force: true });
    return;
  }
  const deadline = Date.now() + check.waitMs;
  while (Date.now() < deadline) {
    await sleep(50);
    if (!isAlive(pid)) return;
  }
  throw new Error(`${check.dir} is in use by a running ${check.program} (pid ${pid}): is another hafatra running on this data directory? Stop it first.`);
}

export async function readPid(pidFile: string): Promise<number | undefined> {
  const text = await readFile(pidFile, 'utf8').catch(() => undefined);
  const pid = Number.parseInt(text?.split('\n')[0] ?? '', 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}
