import { execFile } from 'node:child_process';
import { chmod, lchown, lstat, readdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The unprivileged account the services run as when we are root. */
export interface RunAs {
  name: string;
  uid: number;
  gid: number;
}

export const SERVICE_USER = 'hafatra';

/** Undefined when we are not root: the services then simply run as us. */
export async function serviceUserIfRoot(log: (line: string) => void): Promise<RunAs | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const existing = await lookUpUser(SERVICE_USER);
  if (existing) return existing;
  log(`creating system user '${SERVICE_USER}' to run the embedded services (postgres refuses to run as root)`);
  await createSystemUser(SERVICE_USER).catch(async (err: unknown) => {
    // A concurrent start may have created it in the meantime.
    if (!(await lookUpUser(SERVICE_USER))) throw err;
  });
  const created = await lookUpUser(SERVICE_USER);
  if (!created) throw new Error(`could not create the system user '${SERVICE_USER}'`);
  return created;
}

async function lookUpUser(name: string): Promise<RunAs | undefined> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined;
  }
}

async function createSystemUser(name: string): Promise<void> {
  try {
    await run('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', name]);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    // Alpine / BusyBox have adduser only.
    await run('adduser', ['-S', '-D', '-H', '-h', '/nonexistent', '-s', '/sbin/nologin', name]);
  }
}

/**
 * Lets `user` walk down to `path`: every ancestor it cannot traverse gets o+x
 * (search only, not listing), e.g. /root in a clone under /root.
 */
export async function makeReachable(path: string, user: RunAs, log: (line: string) => void): Promise<void> {
  for (const dir of ancestorsOf(resolve(path))) {
    const info = await stat(dir);
    if (canTraverse(info, user)) continue;
    log(`allowing user '${user.name}' to traverse ${dir} (chmod o+x)`);
    await chmod(dir, (info.mode & 0o7777) | 0o001);
  }
}

function ancestorsOf(path: string): string[] {
  const dirs: string[] = [];
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    dirs.unshift(dir);
    if (dirname(dir) === dir) return dirs;
  }
}

function canTraverse(info: { mode: number; uid: number; gid: number }, user: RunAs): boolean {
  if (info.uid === user.uid) return (info.mode & 0o100) !== 0;
  if (info.gid === user.gid) return (info.mode & 0o010) !== 0;
  return (info.mode & 0o001) !== 0;
}

/** Gives `dir` and everything under it to `user`, unless it already owns it. */
export async function ensureOwnedBy(dir: string, user: RunAs): Promise<void> {
  const info = await stat(dir);
  if (info.uid === user.uid && info.gid === user.gid) return;
  await chownTree(dir, user);
}

async function chownTree(path: string, user: RunAs): Promise<void> {
  await lchown(path, user.uid, user.gid);
  if (!(await lstat(path)).isDirectory()) return;
  for (const entry of await readdir(path)) await chownTree(join(path, entry), user);
}
