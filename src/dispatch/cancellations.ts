import type { AppContext } from '../context/app-context.js';
import { pushAppEvent } from '../devices/app-events.js';
import { deleteCancellations } from './sql/delete-cancellations.js';
import { deleteOldCancellations } from './sql/delete-old-cancellations.js';
import { insertCancellations } from './sql/insert-cancellations.js';
import { selectCancellationReasons } from './sql/select-cancellation-reasons.js';
import { selectPhoneDoor, type PhoneDoor } from './sql/select-phone-door.js';

export type { PhoneDoor } from './sql/select-phone-door.js';

export function phoneDoor(ctx: AppContext, deviceId: string): Promise<PhoneDoor | undefined> {
  return selectPhoneDoor(ctx.db, deviceId);
}

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
  const asked = await insertCancellations(ctx.db, deviceId, ids, reason);
  // Requests answered by a report rather than a cancel are left behind: they count for nothing
  // once the job left `claimed`, and go after a day.
  await deleteOldCancellations(ctx.db);
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
  return selectCancellationReasons(ctx.db, deviceId, ids);
}

/** Requests the phone answered by cancelling: they are done with. */
export async function forgetCancellations(ctx: AppContext, deviceId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await deleteCancellations(ctx.db, deviceId, ids);
}
