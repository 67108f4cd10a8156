import type { Queryable } from '../../db/pool.js';

/**
 * The live (not revoked) devices holding these token hashes, each marked as seen in the same
 * statement unless it was seen within the last `seenResolutionSeconds`; the rows it marks are
 * locked in id order first, as claims and socket marks lock them, so batches never deadlock.
 */
export async function selectDevicesByTokens(db: Queryable, hashes: Buffer[], seenResolutionSeconds: number): Promise<{ id: string; orgId: string; tokenHash: Buffer }[]> {
  const { rows } = await db.query<{ id: string; orgId: string; tokenHash: Buffer }>(
    `WITH d AS (SELECT id, org_id, token_hash, last_seen_at FROM devices WHERE token_hash = ANY($1::bytea[]) AND revoked_at IS NULL),
       stale AS MATERIALIZED (
         SELECT devices.id FROM devices JOIN d ON d.id = devices.id
         WHERE d.last_seen_at IS NULL OR d.last_seen_at < now() - $2 * interval '1 second'
         ORDER BY devices.id FOR UPDATE OF devices
       ),
       seen AS (UPDATE devices SET last_seen_at = now() FROM stale WHERE devices.id = stale.id)
       SELECT id, org_id AS "orgId", token_hash AS "tokenHash" FROM d`,
    [hashes, seenResolutionSeconds],
  );
  return rows;
}
