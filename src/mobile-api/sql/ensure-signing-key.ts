import type { Queryable } from '../../db/pool.js';

/** The phone's signing key: `candidate` stored if it had none, else the one it has. */
export async function ensureSigningKey(db: Queryable, deviceId: string, candidate: string): Promise<string> {
  const { rows } = await db.query<{ signing_key: string }>(
    `WITH made AS (
       INSERT INTO mobile_webhook_keys (device_id, signing_key) VALUES ($1, $2)
       ON CONFLICT (device_id) DO NOTHING RETURNING signing_key)
     SELECT signing_key FROM made UNION ALL SELECT signing_key FROM mobile_webhook_keys WHERE device_id = $1`,
    [deviceId, candidate],
  );
  return rows[0]!.signing_key;
}
