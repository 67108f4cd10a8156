import type { Queryable } from '../../db/pool.js';
import { type MobileMoneyRow, EVENT_COLUMNS } from '../event-row.js';

/** Newest first; `before` is the last id of the previous page. Fetches limit + 1 to detect a next page. */
export async function selectEventPage(db: Queryable, q: { orgId: string; classification?: string; before: string | null; limit: number }): Promise<MobileMoneyRow[]> {
  const { rows } = await db.query<MobileMoneyRow>(
    `SELECT ${EVENT_COLUMNS} FROM mobile_money_events
     WHERE org_id = $1 AND ($2::text IS NULL OR classification = $2) AND ($3::text IS NULL OR id < $3)
     ORDER BY id DESC LIMIT $4`,
    [q.orgId, q.classification ?? null, q.before, q.limit + 1],
  );
  return rows;
}
