import type { AppContext } from '../context/app-context.js';
import { pushAppEvent } from '../devices/app-events.js';

/** A mobile phone as the withdrawal rules see it (devices.protocol, confirms_cancellation). */
export interface PhoneDoor {
  protocol: 'device' | 'mobile';
  confirmsCancellation: boolean;
}

export async function phoneDoor(ctx: AppContext, deviceId: string): Promise<PhoneDoor | undefined> {
  const { rows } = await ctx.db.query(`SELECT protocol, confirms_cancellation AS "confirmsCancellation" FROM devices WHERE id = $1`, [deviceId]);
  return rows[0] as PhoneDoor | undefined;
}

const BATCH = 1000;

/**
 * A native phone's jobs are withdrawn at once when it is slow to acknowledge `sending`; a mobile
 * phone acknowledges nothing (it sends as soon as it pulls), so taking its job back could send
 * it twice. Its jobs are asked back instead: recorded here (listed `Cancelling` on its pulls) and
 * announced by MessageCancelled; the job moves only once the phone reports `Cancelled`
 * (report-messages.ts). Apps before 1.67.0 cannot cancel: their jobs are never asked back and end
 * in a report, or `unknown` when none comes. Messages the send pinned to the phone stay with it,
 * as for native phones. Returns the ids newly asked back.
 */
export async function requestCancellations(ctx: AppContext, door: PhoneDoor, deviceId: string, ids: string[] | null, reason: string): Promise<string[]> {
  if (!door.confirmsCancellation) return [];
  const { rows } = await ctx.db.query(
    `INSERT INTO mobile_cancellations (message_id, device_id, claimed_at, reason)
     SELECT m.id, m.device_id, m.claimed_at, $3 FROM messages m
     WHERE m.device_id = $1 AND m.status = 'claimed' AND m.requested_device_id IS NULL AND m.claimed_at IS NOT NULL
       AND ($2::text[] IS NULL OR m.id = ANY($2::text[]))
     ORDER BY m.id LIMIT ${BATCH}
     ON CONFLICT (message_id) DO UPDATE SET device_id = EXCLUDED.device_id, claimed_at = EXCLUDED.claimed_at, reason = EXCLUDED.reason, requested_at = now()
       WHERE mobile_cancellations.claimed_at IS DISTINCT FROM EXCLUDED.claimed_at OR mobile_cancellations.device_id IS DISTINCT FROM EXCLUDED.device_id
     RETURNING message_id AS id, (SELECT org_id FROM devices WHERE id = $1) AS "orgId"`,
    [deviceId, ids, reason],
  );
  const asked = rows as { id: string; orgId: string }[];
  // Requests answered by a report rather than a cancel are left behind: they count for nothing
  // once the job left `claimed`, and go after a day.
  await ctx.db.query(`DELETE FROM mobile_cancellations WHERE requested_at < now() - interval '1 day'`);
  if (asked.length === 0) return [];
  await pushAppEvent(
    ctx,
    { orgId: asked[0]!.orgId, deviceId },
    asked.map((r) => ({ event: 'MessageCancelled' as const, data: { messageId: r.id } })),
  );
  ctx.log.info({ deviceId, reason, count: asked.length }, 'jobs asked back from a mobile phone');
  return asked.map((r) => r.id);
}

/** Why each of these jobs was asked back (for the timeline of its return), if it was. */
export async function cancellationReasons(ctx: AppContext, deviceId: string, ids: string[]): Promise<Map<string, string>> {
  const { rows } = await ctx.db.query(
    `SELECT c.message_id AS id, c.reason FROM mobile_cancellations c JOIN messages m ON m.id = c.message_id
     WHERE c.message_id = ANY($2::text[]) AND c.device_id = $1 AND m.claimed_at = c.claimed_at`,
    [deviceId, ids],
  );
  return new Map((rows as { id: string; reason: string }[]).map((r) => [r.id, r.reason]));
}

/** Requests the phone answered by cancelling: they are done with. */
export async function forgetCancellations(ctx: AppContext, deviceId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await ctx.db.query(`DELETE FROM mobile_cancellations WHERE device_id = $1 AND message_id = ANY($2::text[])`, [deviceId, ids]);
}
