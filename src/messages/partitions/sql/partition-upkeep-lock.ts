import type { Db, Queryable } from '../../../db/pool.js';

/**
 * The advisory lock key of partition upkeep: every worker runs the hourly pass, and two passes
 * at once would race to create the same month (one failing on the duplicate table) or to detach
 * the same one. Taken for a transaction by createPartitions, and for a session by a retention
 * pass, whose DETACH … CONCURRENTLY cannot run in a transaction.
 */
export const PARTITION_UPKEEP_LOCK = 727_031;

/**
 * Runs `fn` on one connection holding the upkeep lock, or returns undefined at once when another
 * worker's pass holds it (that pass does the work; this one's next turn comes an hour later).
 * A connection that failed is discarded, not returned to the pool, so no lock outlives its pass.
 */
export async function withPartitionUpkeepLock<T>(db: Db, fn: (client: Queryable) => Promise<T>): Promise<T | undefined> {
  const client = await db.connect();
  let broken: Error | undefined;
  try {
    const { rows } = await client.query('SELECT pg_try_advisory_lock($1) AS locked', [PARTITION_UPKEEP_LOCK]);
    if (!rows[0].locked) return undefined;
    try {
      return await fn(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [PARTITION_UPKEEP_LOCK]);
    }
  } catch (err) {
    broken = err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
}
