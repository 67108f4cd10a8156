import type { Queryable } from '../../db/pool.js';

/** A job a mobile phone holds (claimed, not yet reported past `Pending`). */
export interface HeldMessage {
  id: string;
  to: string;
  body: string;
  simSubscriptionId: number | null;
  priority: number;
  createdAt: Date;
  expiresAt: Date;
  /** The server asked for it back (this claim of it): it goes out as `Cancelling`. */
  cancelling: boolean;
}

/**
 * The jobs this phone holds, all of them or those named (oldest first, at most `limit`), with
 * whether each was asked back for the claim it is under now.
 */
export async function selectHeldMessages(db: Queryable, deviceId: string, ids: string[] | null, limit: number): Promise<HeldMessage[]> {
  const { rows } = await db.query<HeldMessage>(
    `SELECT m.id, m.to_number AS "to", m.body, m.sim_subscription_id AS "simSubscriptionId", m.priority, m.created_at AS "createdAt",
       m.expires_at AS "expiresAt", EXISTS (SELECT 1 FROM mobile_cancellations c WHERE c.message_id = m.id AND c.claimed_at = m.claimed_at) AS cancelling
     FROM messages m WHERE m.device_id = $1 AND m.status = 'claimed' AND ($2::text[] IS NULL OR m.id = ANY($2::text[]))
     ORDER BY m.id LIMIT $3`,
    [deviceId, ids, limit],
  );
  return rows;
}
