import type { Queryable } from '../../../db/pool.js';

/** A failed message due an automatic resend: what the resend copies from it. */
export interface DueResend {
  id: string;
  orgId: string;
  to: string;
  body: string;
  /** The phone it failed on. */
  deviceId: string | null;
  requestedDeviceId: string | null;
  simSubscriptionId: number | null;
  priority: number;
  ignoreSendWindows: boolean;
  expiresAt: Date;
  resendsLeft: number;
}

/**
 * Of the given messages, those due an automatic resend now: failed with a code the
 * organization's list holds (its own, or `defaultCodes`), not expired, resends left, none made
 * yet. The others among them that still had resends left are settled in the same statement
 * (auto_resends_left = 0): not retryable, expired, or resent already (the process died before
 * settling), so that no later pass looks at them again.
 */
export async function selectDueResends(db: Queryable, ids: string[], now: Date, defaultCodes: readonly string[]): Promise<DueResend[]> {
  const { rows } = await db.query<DueResend>(
    `WITH c AS (
       SELECT m.id, m.failure_code = ANY(COALESCE(o.auto_resend_codes, $3::text[])) AND m.expires_at > $2
           AND NOT EXISTS (SELECT 1 FROM messages r WHERE r.resend_of_id = m.id AND r.auto_resend) AS due
       FROM messages m JOIN organizations o ON o.id = m.org_id
       WHERE m.id = ANY($1::text[]) AND m.status = 'failed' AND m.auto_resends_left > 0
     ), settled AS (
       UPDATE messages m SET auto_resends_left = 0 FROM c WHERE m.id = c.id AND NOT c.due
     )
     SELECT m.id, m.org_id AS "orgId", m.to_number AS "to", m.body, m.device_id AS "deviceId",
       m.requested_device_id AS "requestedDeviceId", m.sim_subscription_id AS "simSubscriptionId", m.priority,
       m.ignore_send_windows AS "ignoreSendWindows",
       m.expires_at AS "expiresAt", m.auto_resends_left AS "resendsLeft"
     FROM messages m JOIN c ON c.id = m.id AND c.due
     ORDER BY m.failed_at`,
    [ids, now, defaultCodes],
  );
  return rows;
}
