import type { Queryable } from '../../../db/pool.js';

/** The tables partitioned by month on the message id: a message, its timeline, its recipient row. */
export type MonthlyTable = 'messages' | 'message_events' | 'message_recipients';

/** A partition of one of the MonthlyTables. */
export interface Partition {
  table: MonthlyTable;
  name: string;
  /** Its first id past the end (null: the last partition runs to the highest id). */
  upperBound: string | null;
  /** A DETACH ... CONCURRENTLY was interrupted: it must be finalized. */
  detachPending: boolean;
}

/** The partitions of the monthly tables, each with its upper bound read from the catalog. */
export async function selectPartitions(db: Queryable): Promise<Partition[]> {
  const { rows } = await db.query(
    `SELECT p.relname AS "table", c.relname AS name, i.inhdetachpending AS "detachPending",
       substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \\(''([^'']*)''\\)') AS "upperBound"
     FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
     WHERE i.inhparent IN ('messages'::regclass, 'message_events'::regclass, 'message_recipients'::regclass)
     ORDER BY 1, 2`,
  );
  return rows as Partition[];
}

/**
 * Tables a retention pass detached but did not get to drop (its process died in between): by
 * their names, which only partitions of these tables have, and no longer partitions.
 */
export async function selectDetachedPartitions(db: Queryable): Promise<string[]> {
  const { rows } = await db.query(
    `SELECT relname AS name FROM pg_class
     WHERE relkind = 'r' AND NOT relispartition AND relnamespace = current_schema()::regnamespace
       AND relname ~ '^(messages|message_events|message_recipients)_([0-9]{4}_[0-9]{2}|before_partitioning)$'`,
  );
  return rows.map((r) => r.name as string);
}
