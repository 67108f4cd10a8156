import type { Queryable } from '../../db/pool.js';

/**
 * Folds the appended deltas (migration 022) into message_tallies, in one statement: the rows it
 * deletes are the rows it adds, so a crash or a second worker folding at once counts nothing twice.
 */
export async function foldTallyDeltas(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `WITH moved AS (DELETE FROM message_tally_deltas RETURNING org_id, hour, status, delta)
     INSERT INTO message_tallies (org_id, hour, status, count)
     SELECT org_id, hour, status, sum(delta) FROM moved GROUP BY 1, 2, 3
     ON CONFLICT (org_id, hour, status) DO UPDATE SET count = message_tallies.count + EXCLUDED.count`,
  );
  return rowCount ?? 0;
}
