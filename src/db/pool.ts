import pg from 'pg';
import { parseTimestamptz } from './timestamptz.js';
import { giveUpOnStalledConnections } from './stalled-connections.js';

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

/**
 * How long Postgres may keep a caller waiting. Without bounds, a request during an outage (or
 * behind a stalled server) waits forever: for a connection, for an answer that never comes.
 */
export interface PoolOptions {
  /** Connecting, and waiting for a free pooled connection. Default 5 s. */
  connectTimeoutMs?: number;
  /** Postgres cancels a statement running longer (0: no limit). Default 30 s. */
  statementTimeoutMs?: number;
  /** How long after statementTimeoutMs a statement the server never answers may be given up (up to two sweeps of 1 s later). Default 3 s. */
  giveUpMarginMs?: number;
  /** Told about a connection lost while it was checked out (a restart, a killed backend). */
  onConnectionError?: (err: Error) => void;
}

export function createDb(url: string, max: number, opts: PoolOptions = {}): Db {
  return pool(url, max, UTC, opts);
}

/**
 * Connections for the hot paths' prepared statements (claims, status reports, message lists). A prepared
 * statement's generic plan is made once per connection and kept; made while `messages` is still
 * small (a new deployment, a fresh bench) it scans the table and hash-joins, and keeps doing so as
 * the table grows until Postgres happens to analyze it. These connections rule out sequential
 * scans, hash joins and merge joins where an index path exists, so that plan is an index lookup
 * per message (or an index range per status, for lists) whatever the table's size when it was
 * made. Only statements written as index lookups and index ranges run here, so their generic plan
 * is always the one to keep, and it is forced: left to choose, Postgres planned the message list
 * afresh at every call over every monthly partition, which cost more than running the kept plan.
 */
export function createHotDb(url: string, max: number, opts: PoolOptions = {}): HotDb {
  return pool(url, max, `${UTC} -c enable_seqscan=off -c enable_hashjoin=off -c enable_mergejoin=off -c plan_cache_mode=force_generic_plan`, opts) as HotDb;
}

/**
 * A statement the server never answers is given up 3–5 s after Postgres would have cancelled it
 * (giveUpOnStalledConnections sweeps each second): by 35 s in all, the bound a seeded daily
 * count's recount waits for (SEND_TIMING.recountAfterSeedMs).
 */
const GIVE_UP_MARGIN_MS = 3_000;

function pool(url: string, max: number, options: string, opts: PoolOptions): pg.Pool {
  const statementTimeoutMs = opts.statementTimeoutMs ?? 30_000;
  const created = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5_000,
    // A server that vanished without closing the connection (host down, network cut) is noticed
    // by TCP keepalives rather than after the kernel's ~15 minutes of retransmissions.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    options,
    // 0 sends no limit (pg skips falsy values).
    statement_timeout: statementTimeoutMs,
  });
  // The last resort when the server cannot even cancel (it is unreachable): the client gives up.
  if (statementTimeoutMs > 0) giveUpOnStalledConnections(created, statementTimeoutMs + (opts.giveUpMarginMs ?? GIVE_UP_MARGIN_MS));
  // pg-pool listens for 'error' only on idle clients: a checked-out client whose connection dies
  // (FATAL 57P01 on a Postgres restart, a killed backend) emitted an unhandled 'error' that ended
  // the process. Every client gets a listener for its whole life; its caller still sees the
  // failure on the query, and the broken client is dropped when it is released.
  const onConnectionError = opts.onConnectionError ?? (() => undefined);
  created.on('connect', (client) => client.on('error', onConnectionError));
  // An idle client losing its connection: the pool drops it (the listener above reports it).
  created.on('error', () => undefined);
  return created;
}

/** A client whose connection failed (rather than a statement refused by a live server) must not go back to the pool. */
function isBroken(client: DbClient): boolean {
  const state = client as unknown as { _queryable?: boolean; _ending?: boolean };
  return state._queryable === false || state._ending === true;
}

/** Runs fn in one transaction; rolls back on any error. */
export async function inTransaction<T>(db: Db, fn: (client: DbClient) => Promise<T>): Promise<T> {
  const client = await db.connect();
  let failure: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    // A failed ROLLBACK means the connection is gone: release it as broken.
    await client.query('ROLLBACK').catch((rollbackErr: Error) => {
      failure = rollbackErr;
    });
    throw err;
  } finally {
    client.release(failure ?? (isBroken(client) ? new Error('connection lost') : undefined));
  }
}

/** inTransaction on a hot-pool connection: its statements plan as index lookups (createHotDb). */
export function inHotTransaction<T>(hot: HotDb, fn: (client: HotClient) => Promise<T>): Promise<T> {
  return inTransaction(hot, (client) => fn(client as HotClient));
}
