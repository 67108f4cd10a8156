import type { Queryable } from '../../db/pool.js';

/** Parts whose siblings never arrived, past their organization's retention. */
export async function deleteExpiredParts(db: Queryable): Promise<void> {
  await db.query(
    `DELETE FROM incoming_parts p USING devices d, organizations o
     WHERE d.id = p.device_id AND o.id = d.org_id AND p.created_at + make_interval(days => o.retention_days) <= now()`,
  );
}
