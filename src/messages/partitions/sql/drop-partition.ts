import type { Queryable } from '../../../db/pool.js';
import type { MonthlyTable } from './select-partitions.js';

/** A partition's name as an SQL identifier (names come from the catalog, quoted all the same). */
export const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Detaches a partition without blocking sends and reads (CONCURRENTLY waits for the statements
 * using it instead of locking the whole table), or finishes a detach that was interrupted. Not
 * in a transaction: Postgres refuses CONCURRENTLY inside one.
 */
export async function detachPartition(db: Queryable, table: MonthlyTable, partition: string, pending: boolean): Promise<void> {
  await db.query(`ALTER TABLE ${table} DETACH PARTITION ${quoted(partition)} ${pending ? 'FINALIZE' : 'CONCURRENTLY'}`);
}

/** Drops a table no longer attached: a month of messages, timelines or recipients past retention. */
export async function dropDetachedTable(db: Queryable, name: string): Promise<void> {
  await db.query(`DROP TABLE IF EXISTS ${quoted(name)}`);
}
