import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedServices } from '../../src/launcher/embedded-services.js';
import { createDb } from '../../src/db/pool.js';
import { migrate } from '../../src/db/migrate.js';
import { runOnServer } from './database.js';
import { startTestRedisCluster } from './redis-cluster.js';

const TEMPLATE = 'hafatra_template';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
    /** The migrated database every test file's own database is copied from. */
    templateDatabase: string;
  }
}

interface Shared {
  ready: Promise<{ databaseUrl: string; redisUrl: string; stop(): Promise<void> }>;
  users: number;
  /** The Redis Cluster of the `cluster` project, started on its first use. */
  cluster?: Promise<{ url: string; stop(): Promise<void> }>;
}

// vitest runs this once per project, in the same process: the projects share one pair of servers.
const shared = globalThis as typeof globalThis & { hafatraTestServices?: Shared };

async function start() {
  const dataDir = await mkdtemp(join(tmpdir(), 'hafatra-test-'));
  const services = await startEmbeddedServices({ dataDir, log: (line) => console.log(`[services] ${line}`) });
  const db = createDb(services.databaseUrl, 2);
  await migrate(db);
  await db.end();
  // A copy nobody connects to: CREATE DATABASE ... TEMPLATE refuses a template in use.
  await runOnServer(services.databaseUrl, `CREATE DATABASE ${TEMPLATE} TEMPLATE ${new URL(services.databaseUrl).pathname.slice(1)}`);
  return {
    databaseUrl: services.databaseUrl,
    redisUrl: services.redisUrl,
    async stop() {
      await services.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One real Postgres and one real Redis for the whole run, started by the same launcher as
 * `hafatra start`. Test files isolate themselves by organization and by Redis key prefix.
 * The `cluster` project's files get a Redis Cluster (three masters, a replica each) instead.
 */
export default async function setup(project: TestProject) {
  shared.hafatraTestServices ??= { ready: start(), users: 0 };
  const entry = shared.hafatraTestServices;
  entry.users += 1;
  const services = await entry.ready;
  project.provide('databaseUrl', services.databaseUrl);
  project.provide('redisUrl', services.redisUrl);
  project.provide('templateDatabase', TEMPLATE);
  if (project.name === 'cluster') {
    entry.cluster ??= startTestRedisCluster();
    project.provide('redisUrl', (await entry.cluster).url);
  }
  return async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    shared.hafatraTestServices = undefined;
    await Promise.allSettled([services.stop(), entry.cluster?.then((c) => c.stop())]);
  };
}
