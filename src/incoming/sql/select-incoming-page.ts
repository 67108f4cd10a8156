import type { Queryable } from '../../db/pool.js';
import { type IncomingRow, SELECT_INCOMING } from '../incoming-row.js';

/** Newest first; `before` is the last id of the previous page. Fetches limit + 1 to detect a next page. */
export async function selectIncomingPage(db: Queryable, q: { orgId: string; deviceId?: string; before: string | null; limit: number }): Promise<IncomingRow[]> {
  const { rows } = await db.query<IncomingRow>(
    `${SELECT_INCOMING}
     WHERE i.org_id = $1 AND ($2::text IS NULL OR i.device_id = $2) AND ($3::text IS NULL OR i.id < $3)
     ORDER BY i.id DESC LIMIT $4`,
    [q.orgId, q.deviceId ?? null, q.before, q.limit + 1],
  );
  return rows;
}
