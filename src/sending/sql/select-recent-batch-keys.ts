import type { Queryable } from '../../db/pool.js';

/** Which of these (organization, idempotency key) pairs a batch of the last 24 hours holds, as `orgId\nkey`. */
export async function selectRecentBatchKeys(db: Queryable, orgIds: string[], keys: (string | undefined)[]): Promise<Set<string>> {
  const { rows } = await db.query<{ org_id: string; idempotency_key: string }>(
    `SELECT b.org_id, b.idempotency_key FROM batches b JOIN unnest($1::text[], $2::text[]) AS k(org_id, key)
         ON b.org_id = k.org_id AND b.idempotency_key = k.key
       WHERE b.created_at > now() - interval '24 hours'`,
    [orgIds, keys],
  );
  return new Set(rows.map((r) => `${r.org_id}\n${r.idempotency_key}`));
}
