import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedServices } from '../../src/launcher/embedded-services.js';
import { createDb } from '../../src/db/pool.js';
import { migrate } from '../../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
  }
}

/**
 * One real Postgres and one real Redis for the whole run, started by the same launcher as
 * `hafatra start`. Test files isolate themselves by organization and by Redis key prefix.
 */
export default async function setup(project: TestProject) {
  const dataDir = await mkdtemp(join(tmpdir(), 'hafatra-test-'));
  const services = await startEmbeddedServices({ dataDir, log: (line) => console.log(`[services] ${line}`) });
  const db = createDb(services.databaseUrl, 2);
  await migrate(db);
  await db.end();
  project.provide('databaseUrl', services.databaseUrl);
  project.provide('redisUrl', services.redisUrl);
  return async () => {
    await services.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
