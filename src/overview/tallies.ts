import type { Queryable } from '../db/pool.js';

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

export interface HourTally {
  hour: Date;
  status: string;
  count: number;
}

/** Messages of an organization created since `since`, per hour and current status. */
export async function tallySince(db: Queryable, orgId: string, since: Date): Promise<HourTally[]> {
  const { rows } = await db.query(
    `SELECT hour, status, sum(n)::int AS count FROM (
       SELECT hour, status, count AS n FROM message_tallies WHERE org_id = $1 AND hour >= $2
       UNION ALL
       SELECT hour, status, delta FROM message_tally_deltas WHERE org_id = $1 AND hour >= $2
     ) t GROUP BY hour, status HAVING sum(n) <> 0 ORDER BY hour`,
    [orgId, since],
  );
  return rows as HourTally[];
}
