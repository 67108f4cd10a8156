/** This test file's own database (test/support/file-database.ts made it before the file ran). */
export function testDatabaseUrl(): string {
  const url = process.env.HAFATRA_TEST_DATABASE_URL;
  if (!url) throw new Error('HAFATRA_TEST_DATABASE_URL is unset: is test/support/file-database.ts in vitest setupFiles?');
  return url;
}
