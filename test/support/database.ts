import pg from 'pg';

/** This test file's own database (test/support/file-database.ts made it before the file ran). */
export function testDatabaseUrl(): string {
  const url = process.env.HAFATRA_TEST_DATABASE_URL;
  if (!url) throw new Error('HAFATRA_TEST_DATABASE_URL is unset: is test/support/file-database.ts in vitest setupFiles?');
  return url;
}

/** The same server, another database. */
export function databaseUrlFor(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * Runs a statement on the server's `postgres` database: CREATE and DROP DATABASE, which must not
 * run from a database they copy or drop.
 */
export async function runOnServer(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrlFor(url, 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
