import { randomBytes } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import { databaseUrlFor, runOnServer } from './database.js';

/**
 * A setup file (vitest.config.ts): each test file gets a database of its own, copied from the
 * migrated template the global setup made. Test files run side by side, and some work is
 * deployment-wide by design (the webhook relay and recovery passes, the lifecycle sweeps, the
 * tally fold read every organization's rows): on one shared database one file's worker would
 * take another file's events. With a database per file each file is one deployment.
 */
const base = inject('databaseUrl');
const name = `file_${randomBytes(6).toString('hex')}`;

await runOnServer(base, `CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
process.env.HAFATRA_TEST_DATABASE_URL = databaseUrlFor(base, name);

afterAll(async () => {
  // Registered first, so it runs after the file's own afterAll hooks have closed their pools;
  // FORCE ends any connection a failed test left open.
  await runOnServer(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
});
