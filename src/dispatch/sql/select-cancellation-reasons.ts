import type { Queryable } from '../../db/pool.js';

/** Why each of these jobs was asked back under its current claim, if it was. */
export async function selectCancellationReasons(db: Queryable, deviceId: string, ids: string[]): Promise<Map<string, string>> {
  const { rows } = await db.query<{ id: string; reason: string }>(
    `SELECT c.message_id AS id, c.reason FROM mobile_cancellations c JOIN messages m ON m.id = c.message_id
     WHERE c.message_id = ANY($2::text[]) AND c.device_id = $1 AND m.claimed_at = c.claimed_at`,
    [deviceId, ids],
  );
  return new Map(rows.map((r) => [r.id, r.reason]));
}
