import type { Queryable } from '../../db/pool.js';
import type { HourTally } from '../tallies.js';

/** Messages of an organization created since `since`, per hour and current status. */
export async function tallySince(db: Queryable, orgId: string, since: Date): Promise<HourTally[]> {
  const { rows } = await db.query<HourTally>(
    `SELECT hour, status, sum(n)::int AS count FROM (
       SELECT hour, status, count AS n FROM message_tallies WHERE org_id = $1 AND hour >= $2
       UNION ALL
       SELECT hour, status, delta FROM message_tally_deltas WHERE org_id = $1 AND hour >= $2
     ) t GROUP BY hour, status HAVING sum(n) <> 0 ORDER BY hour`,
    [orgId, since],
  );
  return rows;
}
