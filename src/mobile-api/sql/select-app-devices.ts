import type { Queryable } from '../../db/pool.js';

export interface AppDeviceRow {
  id: string;
  orgId: string;
  appVersion: string | null;
  confirmsCancellation: boolean;
  tokenHash: Buffer;
}

/**
 * The live mobile phones holding these token hashes, each marked as seen in the same statement
 * unless it was seen within the last `seenResolutionSeconds`.
 */
export async function selectAppDevices(db: Queryable, hashes: Buffer[], seenResolutionSeconds: number): Promise<AppDeviceRow[]> {
  const { rows } = await db.query<AppDeviceRow>(
    `WITH d AS (
       SELECT id, org_id, last_seen_at, app_version, confirms_cancellation, token_hash FROM devices
       WHERE token_hash = ANY($1::bytea[]) AND revoked_at IS NULL AND protocol = 'mobile'
     ), seen AS (
       UPDATE devices SET last_seen_at = now() FROM d
       WHERE devices.id = d.id AND (d.last_seen_at IS NULL OR d.last_seen_at < now() - $2 * interval '1 second')
     )
     SELECT id, org_id AS "orgId", app_version AS "appVersion", confirms_cancellation AS "confirmsCancellation", token_hash AS "tokenHash" FROM d`,
    [hashes, seenResolutionSeconds],
  );
  return rows;
}
