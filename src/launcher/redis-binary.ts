import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The redis-server to run: `explicitPath` when given, else the one on PATH,
 * installed with apt-get first when missing and we are root on Debian/Ubuntu.
 */
export async function findRedisServer(explicitPath: string | undefined, log: (line: string) => void): Promise<string> {
  if (explicitPath !== undefined) {
    if (isExecutable(explicitPath)) return explicitPath;
    throw new Error(`redis-server not found at ${explicitPath}: ${installHint()}`);
  }
  const onPath = findOnPath('redis-server');
  if (onPath) return onPath;
  if (!canAptInstall()) throw new Error(`redis-server not found on PATH: ${installHint()}`);
  log('redis-server not found: installing it with apt-get (apt-get update && apt-get install -y redis-server)');
  await aptInstallRedis();
  const installed = findOnPath('redis-server') ?? ['/usr/bin/redis-server'].find(isExecutable);
  if (!installed) throw new Error(`apt-get installed redis-server but it is not on PATH: ${installHint()}`);
  return installed;
}

function installHint(): string {
  if (process.platform === 'darwin') return 'install it with `brew install redis`, or set REDIS_URL to use your own Redis';
  if (existsSync('/usr/bin/apt-get')) return 'install it with `sudo apt-get install redis-server`, or set REDIS_URL to use your own Redis';
  return 'install Redis (6.2 or later) so that redis-server is on PATH, or set REDIS_URL to use your own Redis';
}

function canAptInstall(): boolean {
  return process.getuid?.() === 0 && findOnPath('apt-get') !== undefined;
}

function findOnPath(name: string): string | undefined {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return dirs.map((dir) => join(dir, name)).find(isExecutable);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function aptInstallRedis(): Promise<void> {
  const script = 'apt-get update && apt-get install -y --no-install-recommends redis-server';
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) return resolve();
      const tail = output.trim().split('\n').slice(-3).join(' | ');
      reject(new Error(`apt-get install redis-server failed (exit code ${code}): ${tail}`));
    });
  });
}
