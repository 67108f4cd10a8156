import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chown, mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PostgresBinaries } from './postgres-binaries.js';
import { ensureOwnedBy, type RunAs } from './service-user.js';

export const SUPERUSER = 'hafatra';
const PASSWORD_FILE = 'hafatra.password';

/**
 * Creates the cluster in `clusterDir` on first start and returns the superuser's
 * password. initdb runs in a staging directory that is renamed into place only
 * once complete, so a run killed mid-initdb never leaves a half-made cluster.
 */
export async function prepareCluster(clusterDir: string, bins: PostgresBinaries, runAs: RunAs | undefined, log: (line: string) => void): Promise<string> {
  if (!(await isInitialised(clusterDir))) {
    log(`initialising a new Postgres cluster in ${clusterDir}`);
    await initialiseCluster(clusterDir, bins, runAs);
  }
  if (runAs) await ensureOwnedBy(clusterDir, runAs);
  const password = await readFile(join(clusterDir, PASSWORD_FILE), 'utf8').catch(() => {
    throw new Error(`${join(clusterDir, PASSWORD_FILE)} is missing: restore it, or delete ${clusterDir} to start with an empty database`);
  });
  return password.trim();
}

async function isInitialised(clusterDir: string): Promise<boolean> {
  const entries = await readdir(clusterDir).catch(() => [] as string[]);
  if (entries.includes('PG_VERSION')) return true;
  if (entries.length === 0) return false;
  throw new Error(`${clusterDir} is not empty but holds no Postgres cluster: move it away or empty it`);
}

async function initialiseCluster(clusterDir: string, bins: PostgresBinaries, runAs: RunAs | undefined): Promise<void> {
  const staging = `${clusterDir}.init`;
  const stagedCluster = join(staging, 'cluster');
  const password = randomBytes(18).toString('hex');
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true, mode: 0o700 });
  await writeFile(join(staging, 'pwfile'), `${password}\n`, { mode: 0o600 });
  if (runAs) await ensureOwnedBy(staging, runAs);
  await runInitdb(bins.initdb, stagedCluster, join(staging, 'pwfile'), runAs);
  await writeFile(join(stagedCluster, PASSWORD_FILE), `${password}\n`, { mode: 0o600 });
  if (runAs) await chown(join(stagedCluster, PASSWORD_FILE), runAs.uid, runAs.gid);
  await rmdir(clusterDir).catch(() => undefined);
  await rename(stagedCluster, clusterDir);
  await rm(staging, { recursive: true, force: true });
}

function runInitdb(initdb: string, dir: string, pwfile: string, runAs: RunAs | undefined): Promise<void> {
  const args = [
    `--pgdata=${dir}`,
    `--username=${SUPERUSER}`,
    `--pwfile=${pwfile}`,
    '--auth=scram-sha-256',
    '--encoding=UTF8',
    // Unicode-aware ctype without depending on the OS's locales; C collation (byte order) is fast.
    '--locale=C',
    '--locale-provider=builtin',
    '--builtin-locale=C.UTF-8',
    // Detects pages corrupted on disk instead of silently reading them back.
    '--data-checksums',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(initdb, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C' },
      ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (err) => reject(new Error(`could not run initdb: ${err.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) return resolve();
      const tail = output.trim().split('\n').slice(-5).join(' | ');
      reject(new Error(`initdb failed (${signal ?? `exit code ${code}`}): ${tail}`));
    });
  });
}
