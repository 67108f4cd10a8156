import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { Db } from './pool.js';
import { migrationsDir } from '../package/paths.js';

/**
 * Applies the plain SQL files of src/db/migrations in name order, each in its own transaction,
 * once. An advisory lock lets several processes start at once without racing. Its own connection,
 * without the pool's time limits: building an index on a large table, or waiting for another
 * process's migrations, may take minutes.
 */
export async function migrate(db: Db): Promise<string[]> {
  const client = new pg.Client({ ...db.options, statement_timeout: 0, query_timeout: 0 });
  // A lost connection fails the query in progress; without a listener it would end the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(727274)');
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await client.query('SELECT name FROM schema_migrations')).rows.map((r) => r.name as string));
    const files = (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort();
    const applied: string[] = [];
    for (const file of files.filter((f) => !done.has(f))) {
      const sql = await readFile(join(migrationsDir, file), 'utf8');
      await client.query('BEGIN');
      try {
        await client.query(sql);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${file} failed: ${(err as Error).message}`);
      }
      applied.push(file);
    }
    return applied;
  } finally {
    await client.end().catch(() => undefined);
  }
}
