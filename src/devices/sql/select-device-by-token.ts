import type { Queryable } from '../../db/pool.js';

/**
 * The live (not revoked) device holding this token hash, marked as seen in the same statement
 * unless it was seen within the last `seenResolutionSeconds`.
 */
export async function selectDeviceByToken(db: Queryable, hash: Buffer, seenResolutionSeconds: number): Promise<{ id: string; orgId: string } | undefined> {
  const { rows } = await db.query<{ id: string; orgId: string }>(
    `WITH d AS (SELECT id, org_id, last_seen_at FROM devices WHERE token_hash = $1 AND revoked_at IS NULL),
       seen AS (
         UPDATE devices SET last_seen_at = now() FROM d
         WHERE devices.id = d.id AND (d.last_seen_at IS NULL OR d.last_seen_at < now() - $2 * interval '1 second')
       )
       SELECT id, org_id AS "orgId" FROM d`,
    [hash, seenResolutionSeconds],
  );
  return rows[0];
}
