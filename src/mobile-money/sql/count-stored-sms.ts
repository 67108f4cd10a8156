import type { Queryable } from '../../db/pool.js';

/** The received SMS in scope (an organization or all, since a time or ever): with a body, and purged. */
export async function countStoredSms(db: Queryable, orgId: string | null, since: Date | null): Promise<{ total: number; purged: number }> {
  const { rows } = await db.query<{ total: number; purged: number }>(
    `SELECT count(*) FILTER (WHERE body IS NOT NULL) AS total, count(*) FILTER (WHERE body IS NULL) AS purged
     FROM incoming_messages WHERE ($1::text IS NULL OR org_id = $1) AND ($2::timestamptz IS NULL OR received_at >= $2)`,
    [orgId, since],
  );
  return rows[0]!;
}
