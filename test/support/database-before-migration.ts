import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createDb, type Db } from '../../src/db/pool.js';
import { migrationsDir } from '../../src/package/paths.js';
import { databaseUrlFor, runOnServer, testDatabaseUrl } from './database.js';

/**
 * A database of its own, with the migrations before `migration` (a file name's number, '039')
 * applied and recorded as migrate() records them, given to `use` and dropped after: for tests of
 * a migration on a database that already holds data.
 */
export async function withDatabaseBefore(migration: string, use: (db: Db) => Promise<void>): Promise<void> {
  const name = `m${migration}_${randomBytes(5).toString('hex')}`;
  await runOnServer(testDatabaseUrl(), `CREATE DATABASE ${name}`);
  const db = createDb(databaseUrlFor(testDatabaseUrl(), name), 2);
  try {
    await db.query('CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    for (const file of (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql') && f < migration).sort()) {
      await db.query(await readFile(join(migrationsDir, file), 'utf8'));
      await db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
    }
    await use(db);
  } finally {
    await db.end();
    await runOnServer(testDatabaseUrl(), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}
