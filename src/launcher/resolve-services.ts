import { readFile, writeFile, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { connect } from 'node:net';
import type { Config } from '../config/config.js';
import { startEmbeddedServices, type EmbeddedServices } from './embedded-services.js';

/**
 * Where Postgres and Redis are: DATABASE_URL/REDIS_URL when set; else the embedded servers of a
 * running `hafatra start` (it writes <dataDir>/services.json); else embedded servers started for
 * as long as this command runs.
 */
const stateFile = (config: Config) => join(resolve(config.dataDir), 'services.json');

export interface ResolvedServices {
  config: Config;
  embedded?: EmbeddedServices;
}

function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((res) => {
    const s = connect({ host: u.hostname, port: Number(u.port) });
    s.once('connect', () => {
      s.destroy();
      res(true);
    });
    s.once('error', () => res(false));
  });
}

/** The embedded servers of a running `hafatra start`, if they answer. */
async function runningServices(config: Config): Promise<{ databaseUrl: string; redisUrl: string } | undefined> {
  try {
    const running = JSON.parse(await readFile(stateFile(config), 'utf8')) as { databaseUrl: string; redisUrl: string };
    if ((await reachable(running.databaseUrl)) && (await reachable(running.redisUrl))) return running;
  } catch {
    // no state file: nothing running
  }
  return undefined;
}

export async function resolveServices(config: Config, log: (line: string) => void, opts: { reuseRunning?: boolean } = {}): Promise<ResolvedServices> {
  if (config.databaseUrl && config.redisUrl) return { config };
  // `hafatra start` owns its embedded servers; admin commands borrow a running start's.
  const running = opts.reuseRunning === false ? undefined : await runningServices(config);
  const urls = running ?? (await startEmbeddedServices({ dataDir: config.dataDir, log }));
  return {
    config: { ...config, databaseUrl: config.databaseUrl || urls.databaseUrl, redisUrl: config.redisUrl || urls.redisUrl },
    ...(running ? {} : { embedded: urls as EmbeddedServices }),
  };
}

export async function publishServices(config: Config, embedded: EmbeddedServices): Promise<void> {
  await writeFile(stateFile(config), JSON.stringify({ databaseUrl: embedded.databaseUrl, redisUrl: embedded.redisUrl, pid: process.pid }));
}

export async function unpublishServices(config: Config): Promise<void> {
  await rm(stateFile(config), { force: true });
}
