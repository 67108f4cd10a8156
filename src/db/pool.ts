import pg from 'pg';
import { parseTimestamptz } from './timestamptz.js';

export type Db = pg.Pool;
export type DbClient = pg.PoolClient;
export type Queryable = pg.Pool | pg.PoolClient;
/** A pool whose connections plan with indexes only: see createHotDb. */
export type HotDb = pg.Pool & { readonly indexPlans: true };
/** A connection of the hot pool, taken for a transaction. */
export type HotClient = pg.PoolClient & { readonly indexPlans: true };

// bigint columns (counters, byte sizes) fit in a JS number for every value Hafatra stores.
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number(v));
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, parseTimestamptz);

// Timestamps come back in UTC whatever the server's default, which parseTimestamptz reads fastest.
const UTC = '-c TimeZone=UTC';

export function createDb(url: string, max: number): Db {
  return pool(url, max, UTC);
}

/**
 * Connections for the hot paths' prepared statements (claims, status reports, message lists). A prepared
 * statement's generic plan is made once per connection and kept; made while `messages` is still
 * small (a new deployment, a fresh bench) it scans the table and hash-joins, and keeps doing so as
 * the table grows until Postgres happens to analyze it. These connections rule out sequential
 * scans, hash joins and merge joins where an index path exists, so that plan is an index lookup
 * per message (or an index range per status, for lists) whatever the table's size when it was
 * made. Only statements written as index lookups and index ranges run here.
 */
export function createHotDb(url: string, max: number): HotDb {
  return pool(url, max, `${UTC} -c enable_seqscan=off -c enable_hashjoin=off -c enable_mergejoin=off`) as HotDb;
}

function pool(url: string, max: number, options: string): pg.Pool {
  const created = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000, options });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  created.on('error', () => undefined);
  return created;
}

/** Runs fn in one transaction; rolls back on any error. */
export async function inTransaction<T>(db: Db, fn: (client: DbClient) => Promise<T>): Promise<T> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** inTransaction on a hot-pool connection: its statements plan as index lookups (createHotDb). */
export function inHotTransaction<T>(hot: HotDb, fn: (client: HotClient) => Promise<T>): Promise<T> {
  return inTransaction(hot, (client) => fn(client as HotClient));
}
