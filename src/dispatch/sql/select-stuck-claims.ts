import type { Queryable } from '../../db/pool.js';

export interface StuckClaim {
  id: string;
  deviceId: string;
  reason: 'claim_timeout' | 'phone_silent';
}

/**
 * Claimed messages whose phone has not acknowledged `sending` in time: claimed longer than
 * `claimTimeoutSeconds` ago, or held by a phone whose socket is gone and that made no request
 * for `silentPhoneSeconds` (each 0: that rule is off). Not a message the send pinned to its
 * phone: no other phone may take it, and the phone gets it again when it reconnects. Oldest
 * first, at most `limit`. A claimed message's updated_at is its claim time (nothing else changes
 * it), which the in-flight index (migration 010) orders. Of a mobile phone's jobs, only those
 * it can be asked to cancel and was not asked for yet (src/dispatch/cancellations.ts).
 */
export async function selectStuckClaims(db: Queryable, now: Date, rules: { claimTimeoutSeconds: number; silentPhoneSeconds: number }, limit: number): Promise<StuckClaim[]> {
  const { claimTimeoutSeconds: timeout, silentPhoneSeconds: silent } = rules;
  const positive = [timeout, silent].filter((s) => s > 0);
  if (positive.length === 0) return [];
  const { rows } = await db.query<StuckClaim>(
    `SELECT m.id, m.device_id AS "deviceId",
       CASE WHEN $2 > 0 AND m.updated_at < $1::timestamptz - $2 * interval '1 second' THEN 'claim_timeout' ELSE 'phone_silent' END AS reason
     FROM messages m JOIN devices d ON d.id = m.device_id
     WHERE m.status = 'claimed' AND m.requested_device_id IS NULL AND m.updated_at < $1::timestamptz - $4 * interval '1 second'
       AND (($2 > 0 AND m.updated_at < $1::timestamptz - $2 * interval '1 second')
         OR ($3 > 0 AND NOT d.socket_connected AND d.last_seen_at < $1::timestamptz - $3 * interval '1 second'))
       AND (d.protocol = 'device' OR (d.confirms_cancellation
         AND NOT EXISTS (SELECT 1 FROM mobile_cancellations c WHERE c.message_id = m.id AND c.claimed_at = m.claimed_at)))
     ORDER BY m.updated_at LIMIT $5`,
    [now, timeout, silent, Math.min(...positive), limit],
  );
  return rows;
}
