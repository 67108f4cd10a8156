import { rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { readPid } from './pid-file.js';
import { commandLineOf, isAlive } from './process-info.js';

const heldByThisProcess = new Set<string>();

/**
 * Claims `dataDir` for this process through <dataDir>/hafatra.pid, so a second
 * `hafatra start` on the same data fails at once with a clear message instead of
 * waiting on the servers' own pid files. A file naming a dead process (a run that
 * was killed) is simply taken over. Returns the release function.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const lockFile = join(dataDir, 'hafatra.pid');
  const holder = heldByThisProcess.has(dataDir) ? process.pid : await liveHolder(lockFile);
  if (holder !== undefined) {
    throw new Error(`${dataDir} is in use by another hafatra (pid ${holder}): stop it first, or delete ${lockFile} if that process is not hafatra`);
  }
  heldByThisProcess.add(dataDir);
  await writeFile(lockFile, `${process.pid}\n`);
  return async () => {
    heldByThisProcess.delete(dataDir);
    await rm(lockFile, { force: true });
  };
}

async function liveHolder(lockFile: string): Promise<number | undefined> {
  const pid = await readPid(lockFile);
  if (pid === undefined || pid === process.pid || !isAlive(pid)) return undefined;
  // Another Node process: most likely hafatra. Anything else reuses a dead run's pid.
  const program = commandLineOf(pid)?.split(' ')[0];
  return program && basename(program) === basename(process.execPath) ? pid : undefined;
}
