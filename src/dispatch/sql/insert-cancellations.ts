import type { Queryable } from '../../db/pool.js';

/** Cancellations asked in one statement at most. */
export const CANCELLATION_BATCH = 1000;

/**
 * Records the phone's claimed jobs (those named, or all) not pinned to it as asked back, once
 * per claim; the ids newly asked back, with the phone's organization.
 */
export async function insertCancellations(db: Queryable, deviceId: string, ids: string[] | null, reason: string): Promise<{ id: string; orgId: string }[]> {
  const { rows } = await db.query<{ id: string; orgId: string }>(
    `INSERT INTO mobile_cancellations (message_id, device_id, claimed_at, reason)
     SELECT m.id, m.device_id, m.claimed_at, $3 FROM messages m
     WHERE m.device_id = $1 AND m.status = 'claimed' AND m.requested_device_id IS NULL AND m.claimed_at IS NOT NULL
       AND ($2::text[] IS NULL OR m.id = ANY($2::text[]))
     ORDER BY m.id LIMIT ${CANCELLATION_BATCH}
     ON CONFLICT (message_id) DO UPDATE SET device_id = EXCLUDED.device_id, claimed_at = EXCLUDED.claimed_at, reason = EXCLUDED.reason, requested_at = now()
       WHERE mobile_cancellations.claimed_at IS DISTINCT FROM EXCLUDED.claimed_at OR mobile_cancellations.device_id IS DISTINCT FROM EXCLUDED.device_id
     RETURNING message_id AS id, (SELECT org_id FROM devices WHERE id = $1) AS "orgId"`,
    [deviceId, ids, reason],
  );
  return rows;
}
